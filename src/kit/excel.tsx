/**
 * The Excel kit's toolbar buttons of a list (CrudPage `excel`): export the filtered list (all
 * pages), download the import template, import a workbook and show what was created and each
 * skipped row with its reason. Each button needs its right (`<prefix>:export|import|template`),
 * and none shows while the Excel plugin is disabled.
 */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { checkPerm } from '../app/perm.ts';
import { usePluginEnabled } from '../app/plugins.ts';
import { useApp } from '../app/store.ts';
import { Icon } from '../ui/icons.tsx';
import { downloadGet, downloadPost, postForm } from './download.ts';
import { FilePick } from './FilePick.tsx';
import { ImportResult, type ImportSummary } from './ImportResult.tsx';
import { permPrefix } from './service.ts';

export interface ExcelOptions {
  /** File name (without .xlsx) of exports and the template. */
  file: string;
  /** false: export only. */
  import?: boolean;
}

/** What an import answers: the created rows and each skipped one by its sheet row. */
export interface ImportReply {
  created: { row: number }[];
  skipped: { row: number; reason: string }[];
}

export const XLSX_ACCEPT = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function ExcelTools({ prefix, options, query, onImported }: { prefix: string; options: ExcelOptions; query: () => Record<string, unknown>; onImported: () => void }) {
  const { t } = useLingui();
  const { perms } = useApp();
  const enabled = usePluginEnabled('excel');
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  if (!enabled) return null;
  const base = permPrefix(prefix);
  const url = (call: string) => `${prefix.replace(/\/+$/, '')}/${call}`;
  const canImport = options.import !== false && checkPerm(perms, `${base}:import`);

  async function importFile(file: File) {
    const form = new FormData();
    form.append('file', file);
    setBusy(true);
    try {
      const res = await postForm<ImportReply>(url('import'), form);
      setSummary({ created: res.created.length, skipped: res.skipped.map((s) => ({ where: String(s.row), reason: s.reason })) });
      onImported();
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {canImport && checkPerm(perms, `${base}:template`) && (
        <button type="button" className="aw-btn-default h-8 px-3" onClick={() => void downloadGet(url('template'), `${options.file}-template.xlsx`).catch(() => undefined)}>
          <Icon name="file" className="size-4" />
          {t`Import template`}
        </button>
      )}
      {canImport && <FilePick label={t`Import`} accept={XLSX_ACCEPT} busy={busy} onFile={(f) => void importFile(f).catch(() => undefined)} />}
      {checkPerm(perms, `${base}:export`) && (
        <button type="button" className="aw-btn-default h-8 px-3" onClick={() => void downloadPost(url('export'), query(), `${options.file}.xlsx`).catch(() => undefined)}>
          <Icon name="external" className="size-4" />
          {t`Export`}
        </button>
      )}
      <ImportResult summary={summary} onClose={() => setSummary(null)} />
    </>
  );
}
