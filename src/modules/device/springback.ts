/** The springback table as text: one "angle, springback" row per line (degrees). */
export function tableToText(rows: unknown): string {
  return Array.isArray(rows) ? rows.map((r) => (Array.isArray(r) ? r.join(', ') : '')).join('\n') : '';
}

/** Parses the text; null when a line is not two numbers. */
export function textToTable(text: string): [number, number][] | null {
  const rows: [number, number][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const parts = line.split(/[,;\s]+/).filter(Boolean).map(Number);
    if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n))) return null;
    rows.push([parts[0]!, parts[1]!]);
  }
  return rows;
}
