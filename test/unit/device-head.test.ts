// The device form's bending head text and the springback a calibration upload turns into a table.
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEAD } from '../../common/bend-program.ts';
import { springbackRowsSchema } from '../../common/device-request.ts';
import { springbackFromMeasurements } from '../../common/springback.ts';
import { formHead, headToText, textToHead } from '../../src/modules/device/head.ts';

describe('bending head text', () => {
  it('round-trips the boxes the server stores; empty is the default head', () => {
    const text = headToText(DEFAULT_HEAD);
    expect(text).toBe('-73, -2.5, -2.5, -3, 2.5, 2.5\n-273, -100, -100, -73, 100, 100');
    expect(textToHead(text)).toEqual(DEFAULT_HEAD);
    expect(formHead(text)).toEqual(DEFAULT_HEAD);
    expect(formHead(DEFAULT_HEAD)).toEqual(DEFAULT_HEAD);
    expect(formHead('')).toBeNull();
    expect(formHead('  \n ')).toBeNull();
    expect(formHead(null)).toBeNull();
  });

  it('refuses lines that are not six numbers and boxes the server would refuse', () => {
    expect(formHead('1, 2, 3')).toBeUndefined();
    expect(formHead('-10, -1, -1, -5, 1, x')).toBeUndefined();
    // Inverted, and over the die.
    expect(formHead('-5, -1, -1, -10, 1, 1')).toBeUndefined();
    expect(formHead('-5, -5, -5, 5, 5, 5')).toBeUndefined();
    expect(formHead('-60; -3; -3; -3; 3; 3')).toEqual([{ min: [-60, -3, -3], max: [-3, 3, 3] }]);
  });
});

describe('springback from measurements', () => {
  it('each commanded angle gives a row [kept, commanded - kept], repeats averaged, sorted by the angle kept', () => {
    const rows = springbackFromMeasurements([
      { commanded: 90, measured: 84 },
      { commanded: 30, measured: 27 },
      { commanded: 90, measured: 86 },
      { commanded: 150, measured: 140.56 },
    ]);
    expect(rows).toEqual([[27, 3], [85, 5], [140.56, 9.44]]);
    expect(springbackRowsSchema.safeParse(rows).success).toBe(true);
  });

  it('measurements whose kept angles cross make a table the back office refuses too', () => {
    const rows = springbackFromMeasurements([{ commanded: 90, measured: 85 }, { commanded: 100, measured: 80 }]);
    expect(rows).toEqual([[80, 20], [85, 5]]);
    expect(springbackRowsSchema.safeParse(rows).success).toBe(false);
  });
});
