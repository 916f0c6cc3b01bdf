// Spreadsheets of a list: the columns a resource exports and imports, writing an xlsx (cells that
// a spreadsheet would run as a formula are made text), reading an uploaded one within size, shape
// and row limits, and the upload's checks (a file, an xlsx, not too large once unpacked).
import ExcelJS from 'exceljs';
import type { Context } from 'hono';
import type { AppEnv } from './env.ts';
import { fail } from './errors.ts';
import type { Lang } from './i18n.ts';
import { listZip, looksLikeZip, unzippedSize } from './zip.ts';

export interface ExcelColumn {
  /** The row's field (export) and the field a row of the sheet sets (import). */
  key: string;
  zh: string;
  en: string;
  de: string;
  width?: number;
  /** false: exported only (ids, times, names of related records). */
  import?: false;
  /** false: imported only (e.g. a password). */
  export?: false;
}

export interface ExcelDef {
  /** File name without extension, and the worksheet's name. */
  file: string;
  columns: readonly ExcelColumn[];
  /** false: export only (no import or template). */
  import?: false;
}

export const MAX_IMPORT_ROWS = 1000;
export const MAX_EXPORT_ROWS = 10_000;
/** Most bytes of an uploaded workbook, and of its unpacked parts together. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
export const MAX_UNZIPPED_BYTES = 32 * 1024 * 1024;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Row = Record<string, unknown>;
export interface SheetItem {
  /** The row number as the spreadsheet shows it. */
  row: number;
  data: Row;
}

/** Leading characters that make a spreadsheet treat a cell as a formula (or a DDE call). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell that would start a formula gets a leading apostrophe: shown, never run. */
export function safeCell(value: unknown): unknown {
  if (typeof value === 'string' && FORMULA_START.test(value)) return `'${value}`;
  return value;
}

/** The inverse of safeCell on import, so that an exported sheet imports its own values. */
export function unescapeCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** A column's header in `lang`, or the key itself for a field without a column. */
export function headerOf(columns: readonly ExcelColumn[], key: string, lang: Lang): string {
  const col = columns.find((c) => c.key === key);
  return col ? col[lang] : key;
}

export async function writeSheet(def: Pick<ExcelDef, 'file'>, columns: readonly ExcelColumn[], rows: readonly Row[], lang: Lang): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet(def.file.slice(0, 31));
  sheet.columns = columns.map((col) => ({ header: col[lang], key: col.key, width: col.width ?? 16 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    const cells: Row = {};
    for (const col of columns) {
      const v = row[col.key];
      cells[col.key] = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : v;
      cells[col.key] = safeCell(cells[col.key]);
    }
    sheet.addRow(cells);
  }
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

export function xlsxReply(c: Context<AppEnv>, bytes: Uint8Array, file: string): Response {
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': XLSX_TYPE,
    'Content-Disposition': `attachment; filename="${file.replace(/[^\w.-]/g, '_')}.xlsx"`,
  });
}

/** The `file` of a multipart upload, checked to be an xlsx within the limits; and the form. */
export async function readUpload(c: Context<AppEnv>): Promise<{ bytes: Uint8Array; form: FormData }> {
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw fail('importFileMissing');
  }
  const file = form.get('file');
  if (!file || typeof file === 'string') throw fail('importFileMissing');
  const max = { max: MAX_IMPORT_BYTES / 1024 / 1024 };
  if (file.size > MAX_IMPORT_BYTES) throw fail('importFileTooLarge', max);
  const bytes = new Uint8Array(await file.arrayBuffer());
  // An xlsx is a ZIP: anything else (a CSV, an old .xls, a renamed image) is refused unread, and
  // so is a ZIP that would unpack to more than the limit.
  if (!looksLikeZip(bytes)) throw fail('importFileInvalid');
  const entries = listZip(bytes);
  if (!entries) throw fail('importFileInvalid');
  if (unzippedSize(entries) > MAX_UNZIPPED_BYTES) throw fail('importFileTooLarge', max);
  return { bytes, form };
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * The rows of the first worksheet as objects keyed by column key (headers in any of our
 * languages, or the keys themselves); empty rows are left out. Refuses a sheet without any
 * importable column or with `required` missing, and one with more than `maxRows` rows.
 */
export async function readSheet(
  bytes: Uint8Array,
  columns: readonly ExcelColumn[],
  opts: { required?: readonly string[]; maxRows?: number } = {},
): Promise<SheetItem[]> {
  const maxRows = opts.maxRows ?? MAX_IMPORT_ROWS;
  const byHeader = new Map<string, string>(
    columns.filter((c) => c.import !== false).flatMap((c) => [c.key, c.zh, c.en, c.de].map((h) => [h.trim().toLowerCase(), c.key] as [string, string])),
  );
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  } catch {
    throw fail('importFileInvalid');
  }
  const sheet = wb.worksheets[0];
  if (!sheet) throw fail('importFileInvalid');
  // Blank rows at the end count in rowCount: this only bounds the work before reading.
  if (sheet.actualRowCount > maxRows + 1) throw fail('importTooManyRows', { max: maxRows });
  const keys = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, col) => {
    const key = byHeader.get(cell.text.trim().toLowerCase());
    if (key) keys.set(col, key);
  });
  const found = new Set(keys.values());
  if (!found.size || (opts.required ?? []).some((k) => !found.has(k))) throw fail('importFileInvalid');
  const items: SheetItem[] = [];
  sheet.eachRow((r, rowNumber) => {
    if (rowNumber === 1) return;
    const data: Row = {};
    r.eachCell((cell, col) => {
      const key = keys.get(col);
      if (key) data[key] = unescapeCell(cell.text);
    });
    if (Object.values(data).some((v) => !blank(v))) items.push({ row: rowNumber, data });
  });
  if (items.length > maxRows) throw fail('importTooManyRows', { max: maxRows });
  return items;
}

/** Blank cells are absent fields (a column's default or "cannot be empty" applies). */
export function withoutBlanks(data: Row): Row {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => !blank(v)));
}
