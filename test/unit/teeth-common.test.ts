// Tooth numbering systems and the labels' wire format (common/teeth.ts).
import { describe, expect, it } from 'vitest';
import { decodeLabels, encodeLabels, fdiToUniversal, jawOf, universalToFdi } from '../../common/teeth.ts';

describe('tooth numbers and stored labels', () => {
  it('maps Universal and FDI both ways for all 32 teeth', () => {
    expect([1, 8, 9, 16, 17, 24, 25, 32].map(universalToFdi)).toEqual([18, 11, 21, 28, 38, 31, 41, 48]);
    for (let n = 1; n <= 32; n++) expect(fdiToUniversal(universalToFdi(n))).toBe(n);
    expect(universalToFdi(3)).toBe(16); // upper right first molar: "the 6"
    expect(universalToFdi(19)).toBe(36);
    expect(jawOf(16)).toBe('upper');
    expect(jawOf(17)).toBe('lower');
    expect(() => universalToFdi(0)).toThrow(RangeError);
    expect(() => fdiToUniversal(19)).toThrow(RangeError);
    expect(() => fdiToUniversal(51)).toThrow(RangeError);
  });

  it('round-trips labels run-length encoded, and refuses labels of another model or no tooth number', () => {
    const labels = new Uint8Array(120_000);
    for (let i = 0; i < labels.length; i++) labels[i] = (i >> 12) % 7 === 0 ? 1 + ((i >> 12) % 32) : 0;
    const s = encodeLabels(labels);
    expect(s.length).toBeLessThan(20_000);
    expect(decodeLabels(s, labels.length)).toEqual(labels);
    for (const n of [0, 1, 2, 3, 127, 128, 16385]) { const l = new Uint8Array(n).map((_, i) => (i * 7) % 3 === 0 ? 5 : 0); expect(decodeLabels(encodeLabels(l), n)).toEqual(l); }
    expect(() => decodeLabels(s, labels.length + 1)).toThrow(RangeError);
    expect(() => decodeLabels(s, labels.length - 1)).toThrow(RangeError);
    expect(() => decodeLabels(encodeLabels(new Uint8Array([0, 33])), 2)).toThrow(RangeError);
    expect(() => decodeLabels('not base64!', 2)).toThrow(RangeError);
    expect(() => decodeLabels(encodeLabels(new Uint8Array([4, 4])).slice(0, 4), 2)).not.toThrow();
    // a run length of 2^40 is refused before any work
    expect(() => decodeLabels('AP////8P', 10)).toThrow(RangeError);
  });
});

describe('neighbours, canines and last molars', () => {
  it('names the distal neighbour on every quadrant, none past the third molar', async () => {
    const { distalOf } = await import('../../common/teeth.ts');
    // FDI 16 -> 17, 21 -> 22, 36 -> 37, 44 -> 45
    expect([3, 9, 19, 28].map((n) => universalToFdi(distalOf(n)!))).toEqual([17, 22, 37, 45]);
    expect([1, 16, 17, 32].map(distalOf)).toEqual([null, null, null, null]);
  });

  it('canines and the last molars present per side', async () => {
    const { caninesOf, lastMolarsOf } = await import('../../common/teeth.ts');
    expect(caninesOf('upper').map(universalToFdi)).toEqual([13, 23]);
    expect(caninesOf('lower').map(universalToFdi)).toEqual([43, 33]);
    expect(lastMolarsOf('upper', [2, 3, 4, 13, 14]).map((n) => n && universalToFdi(n))).toEqual([17, 26]);
    expect(lastMolarsOf('lower', [17, 18, 19, 30, 29])).toEqual([30, 17]);
    expect(lastMolarsOf('lower', [20, 21, 28])).toEqual([null, null]);
  });
});
