/**
 * Plugins: the built-in ones (the editors, the region picker, the Excel kit, the AI service
 * connector) and installed packages. Enable or disable each, edit its settings (a form from its
 * settings schema; the server checks them again), install a package (a JSON manifest or a ZIP)
 * and uninstall it. Turning a built-in off hides its feature for everyone.
 */
import { useMemo, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { SettingField } from '../../../../common/plugins.ts';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { reloadPlugins } from '../../../app/plugins.ts';
import { CrudPage, FilePick, postForm, UpsertDialog, useConfirm, type CrudHandle, type CrudService, type FormItem, type Row, type TableColumn, type UpsertTarget } from '../../../kit/index.ts';
import { toast } from '../../../ui/toast.tsx';

const PREFIX = '/admin/plugin/info';

interface Plugin extends Row {
  key: string;
  name: string;
  title?: string;
  version: string;
  builtIn: boolean;
  status: 0 | 1;
  settings: Record<string, unknown>;
  settingsSchema: SettingField[];
  menus: { name: string; router: string }[];
}

export default function PluginList() {
  const { t } = useLingui();
  const crud = useRef<CrudHandle>(null);
  const [editing, setEditing] = useState<Plugin | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, confirmDialog] = useConfirm();

  const builtInNames: Record<string, string> = {
    markdown: t`Markdown editor`,
    code: t`Code editor`,
    richText: t`Rich text editor`,
    regionPicker: t`Region picker`,
    excel: t`Excel import and export`,
    aiService: t`AI service connector`,
  };
  const settingLabels: Record<string, string> = {
    preview: t`Live preview`,
    tabSize: t`Tab size`,
    maxLength: t`Longest text (characters)`,
    level: t`Down to`,
    exportRows: t`Most rows per export`,
    timeoutSeconds: t`Timeout (seconds)`,
  };
  const nameOf = (p: Plugin) => (p.builtIn ? (builtInNames[p.key] ?? p.key) : (p.title ?? p.name));

  const service = useMemo<CrudService>(
    () => ({
      prefix: PREFIX,
      page: async (query) => {
        const list = await request<Plugin[]>({ url: `${PREFIX}/list`, method: 'POST', data: {}, onForbidden: 'page' });
        const kw = typeof query.keyWord === 'string' ? query.keyWord.trim().toLowerCase() : '';
        return kw ? list.filter((p) => `${p.key} ${p.name} ${p.title ?? ''}`.toLowerCase().includes(kw)) : list;
      },
    }),
    [],
  );

  async function setStatus(p: Plugin, status: 0 | 1) {
    await request({ url: `${PREFIX}/enable`, method: 'POST', data: { key: p.key, status } });
    toast.success(status ? t`Enabled` : t`Disabled`);
    await reloadPlugins();
    crud.current?.refresh();
  }
  async function uninstall(p: Plugin) {
    if (!(await confirm({ message: t`Uninstall ${nameOf(p)}? Its menus are removed.` }))) return;
    await request({ url: `${PREFIX}/uninstall`, method: 'POST', data: { key: p.key } });
    toast.success(t`Uninstalled`);
    await reloadPlugins();
    crud.current?.refresh();
  }
  async function install(file: File) {
    const form = new FormData();
    form.append('file', file);
    setBusy(true);
    try {
      await postForm(`${PREFIX}/install`, form);
      toast.success(t`Installed`);
      crud.current?.refresh();
    } finally {
      setBusy(false);
    }
  }

  const columns: TableColumn[] = [
    { prop: 'name', label: t`Plugin`, minWidth: 180, render: (r) => nameOf(r as Plugin) },
    { prop: 'key', label: t`Key`, minWidth: 120 },
    { prop: 'version', label: t`Version`, width: 100 },
    { prop: 'builtIn', label: t`Type`, width: 110, render: (r) => ((r as Plugin).builtIn ? t`Built-in` : t`Installed`) },
    {
      prop: 'status',
      label: t`Status`,
      width: 110,
      render: (r) => (
        <span className={(r as Plugin).status ? 'text-green-700' : 'text-slate-400'} data-status={(r as Plugin).status}>
          {(r as Plugin).status ? t`Enabled` : t`Disabled`}
        </span>
      ),
    },
    { prop: 'menus', label: t`Menus`, minWidth: 160, render: (r) => (r as Plugin).menus.map((m) => m.router).join(', ') },
  ];

  const items: FormItem[] = (editing?.settingsSchema ?? []).map((f) => {
    const label = (editing?.builtIn ? settingLabels[f.key] : undefined) ?? f.key;
    if (f.type === 'boolean') return { prop: f.key, label, type: 'switch' };
    if (f.type === 'number') return { prop: f.key, label, type: 'number', min: f.min, max: f.max, step: f.integer ? 1 : undefined };
    if (f.type === 'enum') return { prop: f.key, label, type: 'select', options: f.values.map((v) => ({ label: v, value: v })) };
    return { prop: f.key, label, type: 'input' };
  });
  const target: UpsertTarget | null = editing ? { mode: 'update', id: editing.key, record: { ...editing.settings, id: editing.key } } : null;
  const canEnable = hasPerm('plugin:info:enable');

  return (
    <>
      <CrudPage
        ref={crud}
        service={service}
        columns={columns}
        rowKey="key"
        selection={false}
        rowMenu={false}
        op={false}
        urlState={false}
        perms={{ page: hasPerm('plugin:info:list') }}
        rowActions={[
          { label: t`Disable`, onClick: (r) => void setStatus(r as Plugin, 0).catch(() => undefined), hidden: (r) => !canEnable || (r as Plugin).status === 0 },
          { label: t`Enable`, onClick: (r) => void setStatus(r as Plugin, 1).catch(() => undefined), hidden: (r) => !canEnable || (r as Plugin).status === 1 },
          { label: t`Settings`, onClick: (r) => setEditing(r as Plugin), hidden: (r) => !hasPerm('plugin:info:config') || !(r as Plugin).settingsSchema.length },
          { label: t`Uninstall`, danger: true, onClick: (r) => void uninstall(r as Plugin).catch(() => undefined), hidden: (r) => !hasPerm('plugin:info:uninstall') || (r as Plugin).builtIn },
        ]}
        toolbar={hasPerm('plugin:info:install') && <FilePick label={t`Install plugin`} accept=".zip,.json,application/zip,application/json" busy={busy} onFile={(f) => void install(f).catch(() => undefined)} />}
      />
      <UpsertDialog
        target={target}
        onClose={() => setEditing(null)}
        onSaved={() => crud.current?.refresh()}
        service={service}
        items={items}
        title={() => t`Settings of ${editing ? nameOf(editing) : ''}`}
        onInfo={(r) => r}
        onSubmit={(data) => {
          const settings = Object.fromEntries(Object.entries(data).filter(([k, v]) => k !== 'id' && v !== undefined && v !== null && v !== ''));
          return request({ url: `${PREFIX}/config`, method: 'POST', data: { key: editing!.key, settings } });
        }}
      />
      {confirmDialog}
    </>
  );
}
