/** The bending head as text in the device form: one box per line, "min x, y, z, max x, y, z" (mm, head frame). */
import { type HeadBox, headProblem } from '../../../common/bend-program.ts';

export function headToText(boxes: unknown): string {
  if (!Array.isArray(boxes)) return '';
  return boxes
    .map((b) => (b && typeof b === 'object' && 'min' in b && 'max' in b ? [...(b as HeadBox).min, ...(b as HeadBox).max].join(', ') : ''))
    .join('\n');
}

/** The boxes of the text; [] for an empty text (the default head); null when a line is not six numbers. */
export function textToHead(text: string): HeadBox[] | null {
  const boxes: HeadBox[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const n = line.split(/[,;\s]+/).filter(Boolean).map(Number);
    if (n.length !== 6 || n.some((v) => !Number.isFinite(v))) return null;
    boxes.push({ min: [n[0]!, n[1]!, n[2]!], max: [n[3]!, n[4]!, n[5]!] });
  }
  return boxes;
}

/** The form's value (text, or boxes as the server answers them) as boxes; null: the default head; undefined: not valid. */
export function formHead(value: unknown): HeadBox[] | null | undefined {
  const boxes = Array.isArray(value) ? textToHead(headToText(value)) : textToHead(String(value ?? ''));
  if (boxes === null) return undefined;
  if (boxes.length === 0) return null;
  return headProblem(boxes) ? undefined : boxes;
}
