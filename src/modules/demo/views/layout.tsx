/**
 * The view layout: the primitives the back office is built from, side by side — page frame and
 * cards, a side panel beside the main area, buttons and tags, a kit form, the pager, an empty
 * state and the loading spinner.
 */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { KitForm, Pagination, type Form, type FormItem } from '../../../kit/index.ts';
import { EmptyState } from '../../../ui/EmptyState.tsx';
import { Icon, type IconName } from '../../../ui/icons.tsx';
import { Spinner } from '../../../ui/Spinner.tsx';
import { DemoPage } from '../DemoPage.tsx';

function Stat({ icon, label, value }: { icon: IconName; label: string; value: string }) {
  return (
    <div className="aw-card flex items-center gap-3 p-4">
      <span className="flex size-10 items-center justify-center rounded-xl bg-primary-light-9 text-primary">
        <Icon name={icon} className="size-5" />
      </span>
      <div>
        <p className="text-xs text-slate-500">{label}</p>
        <p className="text-lg font-semibold text-slate-800">{value}</p>
      </div>
    </div>
  );
}

function Block({ title, wide = false, children }: { title: string; wide?: boolean; children: React.ReactNode }) {
  return (
    <section className={`rounded-md border border-slate-200 p-3 ${wide ? 'lg:col-span-2' : ''}`} aria-label={title}>
      <h2 className="mb-3 text-sm font-semibold text-slate-700">{title}</h2>
      {children}
    </section>
  );
}

export default function LayoutDemo() {
  const { t } = useLingui();
  const [form, setForm] = useState<Form>({ name: '', kind: 1 });
  const [pager, setPager] = useState({ page: 1, size: 20 });
  const [side, setSide] = useState('a');
  const items: FormItem[] = [
    { prop: 'name', label: t`Name`, required: true, span: 12 },
    { prop: 'kind', label: t`Kind`, type: 'radio', span: 12, options: [{ label: t`Image`, value: 1 }, { label: t`File`, value: 2 }] },
    { prop: 'region', label: t`Region`, type: 'region', span: 12 },
    { prop: 'when', label: t`Delivery time`, type: 'datetime', span: 12 },
    { prop: 'remark', label: t`Remark`, type: 'textarea' },
  ];
  const sides = [
    { key: 'a', label: t`Overview` },
    { key: 'b', label: t`Details` },
    { key: 'c', label: t`History` },
  ];
  return (
    <DemoPage title={t`View layout`} intro={t`The building blocks of the back office pages, shown together.`}>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <Stat icon="dashboard" label={t`Cards`} value="4" />
        <Stat icon="list" label={t`Lists`} value="12" />
        <Stat icon="users" label={t`Users`} value="128" />
        <Stat icon="clock" label={t`Updated`} value="08:00" />
      </div>
      <div className="mt-4 flex flex-col gap-3 md:flex-row">
        <aside className="aw-card w-full shrink-0 p-1.5 md:w-52 md:self-start" aria-label={t`Side panel`}>
          {sides.map((s) => (
            <button
              key={s.key}
              type="button"
              aria-current={side === s.key}
              onClick={() => setSide(s.key)}
              className="w-full rounded-md px-2 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-50 aria-[current=true]:bg-primary-light-9 aria-[current=true]:text-primary"
            >
              {s.label}
            </button>
          ))}
        </aside>
        <div className="grid min-w-0 flex-1 gap-3 lg:grid-cols-2">
          <Block title={t`Buttons and tags`}>
            <div className="flex flex-wrap items-center gap-2">
              <button type="button" className="aw-btn-primary">{t`Save`}</button>
              <button type="button" className="aw-btn-default">{t`Close`}</button>
              <button type="button" className="aw-btn-icon" aria-label={t`Refresh`} title={t`Refresh`}>
                <Icon name="refresh" className="size-4" />
              </button>
              <span className="rounded bg-green-50 px-2 py-0.5 text-xs text-green-700">{t`Enabled`}</span>
              <span className="rounded bg-red-50 px-2 py-0.5 text-xs text-red-700">{t`Disabled`}</span>
              <Spinner className="size-4" />
            </div>
          </Block>
          <Block title={t`Pager`}>
            <Pagination page={pager.page} size={pager.size} total={436} mini={false} onChange={setPager} />
          </Block>
          <Block title={t`Form`} wide>
            <KitForm items={items} mode="add" value={form} onChange={setForm} />
          </Block>
          <Block title={t`Empty state`}>
            <EmptyState icon="folder" title={t`No data`} tone="muted">
              {t`Lists without rows show this.`}
            </EmptyState>
          </Block>
        </div>
      </div>
    </DemoPage>
  );
}
