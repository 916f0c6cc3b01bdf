import { describe, expect, it } from 'vitest';
import { tableToText, textToTable } from '../../src/modules/device/springback.ts';

describe('springback table text', () => {
  it('round-trips the rows the server stores', () => {
    const rows: [number, number][] = [[0, 0], [45, 2.5], [90, -1.25]];
    expect(tableToText(rows)).toBe('0, 0\n45, 2.5\n90, -1.25');
    expect(textToTable(tableToText(rows))).toEqual(rows);
  });

  it('takes commas, semicolons or spaces and skips blank lines; refuses anything else', () => {
    expect(textToTable('10;1\n\n 20 2 \r\n30,\t3')).toEqual([[10, 1], [20, 2], [30, 3]]);
    expect(textToTable('10, 1, 2')).toBeNull();
    expect(textToTable('ten, 1')).toBeNull();
    expect(textToTable('')).toEqual([]);
  });
});
