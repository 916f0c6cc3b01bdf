/**
 * The AI coding helper (/helper/ai-code, kept alive): an admin describes an entity in one sentence
 * (turned into fields by the server: a language model if one is configured, else the rules of the
 * epsFieldType param) or in the form, reviews the fields, sees the server and page source side by
 * side (read-only, never run), downloads them, and creates the module live: its table, menu and
 * permissions, served at once by the generic kit. Live modules are listed with their removal.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { MAX_SENTENCE, tableFor, type ModuleDef, type ParseReply, type StoredModule } from '../../../../common/ai-code.ts';
import { request } from '../../../api/client.ts';
import { hasPerm, reloadMenu, useApp } from '../../../app/store.ts';
import { useConfirm } from '../../../kit/index.ts';
import { toast } from '../../../ui/toast.tsx';
import { PageSpinner } from '../../../ui/Spinner.tsx';
import { saveBlob } from '../../base/download.ts';
import { draftInput, draftOf, emptyDraft, type Draft } from '../draft.ts';
import { FieldsEditor } from '../FieldsEditor.tsx';

const SourceView = lazy(() => import('../SourceView.tsx'));
const PREFIX = '/admin/helper/aiCode';

/** The `source` call's reply: the module as the server checked it, and its two files. */
interface Sources {
  definition: ModuleDef;
  server: string;
  page: string;
  files: { server: string; page: string };
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export default function AiCode() {
  const { t } = useLingui();
  const navigate = useNavigate();
  // Re-rendered when the permissions change (hasPerm reads the store).
  useApp();
  const [sentence, setSentence] = useState('');
  const [useModel, setUseModel] = useState(true);
  const [note, setNote] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [shown, setShown] = useState<Sources | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [modules, setModules] = useState<StoredModule[] | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const mayList = hasPerm('helper:aiCode:list');
  const mayParse = hasPerm('helper:aiCode:parse');
  const maySource = hasPerm('helper:aiCode:source');
  const mayCreate = hasPerm('helper:aiCode:create');
  const mayRemove = hasPerm('helper:aiCode:remove');

  const loadModules = useCallback(() => {
    if (!mayList) return;
    request<StoredModule[]>({ url: `${PREFIX}/list`, method: 'POST', data: {} }).then(setModules, () => setModules([]));
  }, [mayList]);
  useEffect(loadModules, [loadModules]);

  async function describe() {
    setBusy(true);
    try {
      const reply = await request<ParseReply>({ url: `${PREFIX}/parse`, method: 'POST', data: { sentence, useModel } });
      setDraft(draftOf(reply.definition));
      setShown(null);
      setProblem(null);
      setNote(reply.via === 'llm' ? t`The fields were described by the language model.` : (reply.fallback ?? t`The fields were made by the rules.`));
    } finally {
      setBusy(false);
    }
  }

  // The server checks the module (the same schema as for create) and writes the sources.
  async function showSource() {
    setBusy(true);
    try {
      setShown(await request<Sources>({ url: `${PREFIX}/source`, method: 'POST', data: { definition: draftInput(draft) } }));
      setProblem(null);
    } catch (err) {
      setProblem(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function create() {
    setBusy(true);
    try {
      const made = await request<{ router: string; granted: boolean }>({ url: `${PREFIX}/create`, method: 'POST', data: { definition: draftInput(draft) } });
      setProblem(null);
      toast.success(made.granted ? t`Module created` : t`Module created; a role manager must grant its rights`);
      await reloadMenu();
      loadModules();
    } catch (err) {
      setProblem(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function remove(m: StoredModule) {
    const { label, name, tableName } = m;
    const ok = await confirm({ message: t`Remove the module ${label} (${name})? Its table ${tableName} and all its records, its menu and its permissions are deleted.`, danger: true, confirmLabel: t`Remove` });
    if (!ok) return;
    await request({ url: `${PREFIX}/remove`, method: 'POST', data: { id: m.id, confirm: m.name } });
    toast.success(t`Module removed`);
    await reloadMenu();
    loadModules();
  }

  const download = (text: string, name: string) => saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), name);
  const setName = (name: string) => setDraft((d) => ({ ...d, name, tableName: d.tableName === tableFor(d.name) || !d.tableName ? tableFor(name) : d.tableName }));

  return (
    <div className="flex flex-col gap-4 p-4" data-testid="ai-code">
      {confirmDialog}
      {mayParse && (
        <section className="aw-card p-4">
          <h2 className="mb-2 text-base font-semibold">{t`Describe it in one sentence`}</h2>
          <textarea
            className="aw-input h-20 py-2"
            aria-label={t`Sentence`}
            maxLength={MAX_SENTENCE}
            placeholder={t`A book with title, author, price, publish date, status and remark`}
            value={sentence}
            onChange={(e) => setSentence(e.target.value)}
          />
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <button type="button" className="aw-btn-primary" disabled={busy || !sentence.trim()} onClick={() => void describe()}>
              {t`Generate fields`}
            </button>
            <label className="flex items-center gap-1.5 text-sm text-slate-600">
              <input type="checkbox" checked={useModel} onChange={(e) => setUseModel(e.target.checked)} />
              {t`Ask the language model when one is configured`}
            </label>
            {note && <span className="text-sm text-slate-500" data-testid="parse-note">{note}</span>}
          </div>
        </section>
      )}

      <section className="aw-card p-4">
        <h2 className="mb-2 text-base font-semibold">{t`Module`}</h2>
        <div className="mb-3 grid grid-cols-1 gap-3 md:grid-cols-3">
          <label>
            <span className="aw-label">{t`Module name`}</span>
            <input className="aw-input font-mono" value={draft.name} placeholder="book" onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            <span className="aw-label">{t`Table name`}</span>
            <input className="aw-input font-mono" value={draft.tableName} placeholder="mod_book" onChange={(e) => setDraft((d) => ({ ...d, tableName: e.target.value }))} />
          </label>
          <label>
            <span className="aw-label">{t`Menu name`}</span>
            <input className="aw-input" value={draft.label} onChange={(e) => setDraft((d) => ({ ...d, label: e.target.value }))} />
          </label>
        </div>
        <FieldsEditor fields={draft.fields} onChange={(fields) => setDraft((d) => ({ ...d, fields }))} />
        {problem && <p className="aw-field-error" role="alert">{problem}</p>}
        <div className="mt-3 flex flex-wrap gap-2">
          {maySource && (
            <button type="button" className="aw-btn-default" disabled={busy} onClick={() => void showSource()}>
              {t`Show source`}
            </button>
          )}
          {mayCreate && (
            <button type="button" className="aw-btn-primary" disabled={busy} onClick={() => void create()}>
              {t`Create module`}
            </button>
          )}
        </div>
      </section>

      {shown && (
        <section className="aw-card p-4" data-testid="sources">
          <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
            {[
              { title: t`Server module`, text: shown.server, file: shown.files.server },
              { title: t`Page source`, text: shown.page, file: shown.files.page },
            ].map((s) => (
              <div key={s.file}>
                <div className="mb-1 flex items-center justify-between">
                  <span className="text-sm font-medium">
                    {s.title} <span className="font-mono text-xs text-slate-500">{s.file}</span>
                  </span>
                  <button type="button" className="aw-btn-default h-8 px-3" onClick={() => download(s.text, s.file)}>
                    {t`Download`}
                  </button>
                </div>
                <Suspense fallback={<PageSpinner />}>
                  <SourceView text={s.text} label={s.title} />
                </Suspense>
              </div>
            ))}
          </div>
        </section>
      )}

      {mayList && (
        <section className="aw-card p-4">
          <h2 className="mb-2 text-base font-semibold">{t`Live modules`}</h2>
          {modules === null ? (
            <PageSpinner />
          ) : modules.length === 0 ? (
            <p className="text-sm text-slate-500">{t`No modules yet.`}</p>
          ) : (
            <table className="w-full text-sm" data-testid="modules">
              <thead className="bg-slate-50 text-left text-xs text-slate-500">
                <tr>
                  <th className="px-2 py-1">{t`Menu name`}</th>
                  <th className="px-2 py-1">{t`Module name`}</th>
                  <th className="px-2 py-1">{t`Table name`}</th>
                  <th className="px-2 py-1">{t`Fields`}</th>
                  <th className="px-2 py-1">{t`Created`}</th>
                  <th className="px-2 py-1" />
                </tr>
              </thead>
              <tbody>
                {modules.map((m) => (
                  <tr key={m.id} className="border-t border-slate-100" data-testid={`module-${m.name}`}>
                    <td className="px-2 py-1">{m.label}</td>
                    <td className="px-2 py-1 font-mono">{m.name}</td>
                    <td className="px-2 py-1 font-mono">{m.tableName}</td>
                    <td className="px-2 py-1">{m.definition.fields.length}</td>
                    <td className="px-2 py-1">{m.createTime}</td>
                    <td className="flex justify-end gap-2 px-2 py-1">
                      <button type="button" className="aw-btn-default h-8 px-3" onClick={() => void navigate({ to: `/gen/${m.name}` })}>
                        {t`Open`}
                      </button>
                      {mayRemove && (
                        <button type="button" className="aw-btn-default h-8 px-3 text-red-600" onClick={() => void remove(m)}>
                          {t`Remove`}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </div>
  );
}
