// @vitest-environment jsdom
// The order form's occlusion slot with two bite scans: an ASCII scan among them is converted to
// binary STL (the converter is injected: the real one is the geometry worker, tested in
// order-simplify.test.ts) and merged with the other into ONE uploaded model; a file that is no
// STL is refused naming it (in en, zh and de), as is a failed conversion; more than two files are
// refused; nothing is uploaded after a refusal and the value is what it was; while the scans
// merge the value is pending, so that saving the order waits for them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { ModelUpload } from '../../src/modules/order/ModelUpload.tsx';
import { stlKind, triangleCount } from '../../src/geometry/stlMerge.ts';
import { GeometryError } from '../../src/geometry/errors.ts';
import { asciiStl, binaryStl, cubeTriangles, garbage } from '../fixtures/stl.ts';
import { useLocale } from './kit-harness.tsx';

const uploaded = vi.hoisted(() => [] as File[]);
vi.mock('../../src/modules/order/upload.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/modules/order/upload.ts')>();
  return {
    ...real,
    uploadLimit: async () => null,
    uploadFiles: async (files: File[]) => {
      uploaded.push(...files);
      return files.map((f, i) => ({ id: 70 + i, name: f.name, size: f.size, url: `/file/${70 + i}` }));
    },
  };
});

beforeEach(() => {
  uploaded.length = 0;
});
afterEach(cleanup);

function file(name: string, bytes: Uint8Array): File {
  const f = new File([bytes.slice().buffer as ArrayBuffer], name, { type: 'model/stl' });
  // jsdom's File may lack arrayBuffer(): read the bytes we gave it.
  if (typeof f.arrayBuffer !== 'function') Object.defineProperty(f, 'arrayBuffer', { value: async () => bytes.slice().buffer });
  return f;
}

async function bytesOf(f: File): Promise<Uint8Array> {
  if (typeof f.arrayBuffer === 'function') return new Uint8Array(await f.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(f);
  });
}

type Converter = (file: File, options: { signal?: AbortSignal }) => Promise<Uint8Array>;

function slot(toBinary: Converter) {
  const onChange = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <ModelUpload id="occlusion" value={null} onChange={onChange} disabled={false} invalid={false} pair toBinary={toBinary} />
    </I18nProvider>,
  );
  const input = document.getElementById('occlusion') as HTMLInputElement;
  expect(input.multiple).toBe(true);
  return { input, onChange };
}

/** While scans merge the value is a pending token (saving waits); after a refusal it is back to what it was (null). */
function refusedWithoutValue(onChange: ReturnType<typeof vi.fn>) {
  expect(onChange.mock.calls.some(([v]) => typeof v === 'number')).toBe(false);
  expect(onChange).toHaveBeenLastCalledWith(null);
}

/** Stands in for the worker: the cube as binary STL, whatever the ASCII said. */
const cubeConverter = () => vi.fn<Converter>(async () => binaryStl(cubeTriangles()));

describe('two bite scans in the occlusion slot', () => {
  it('an ASCII scan among two is converted to binary and merged into one uploaded model', async () => {
    const toBinary = cubeConverter();
    const { input, onChange } = slot(toBinary);
    const left = binaryStl(cubeTriangles());
    fireEvent.change(input, { target: { files: [file('left.stl', left), file('right.stl', asciiStl(cubeTriangles()))] } });
    // Pending from the moment the scans were chosen (a save waits for the merge and the upload).
    expect(String(onChange.mock.calls[0]![0])).toMatch(/^pending:/);
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(70));
    expect(toBinary).toHaveBeenCalledTimes(1);
    expect(toBinary.mock.calls[0]![0].name).toBe('right.stl');
    expect(uploaded).toHaveLength(1);
    expect(uploaded[0]!.name).toBe('left+right.stl');
    const merged = await bytesOf(uploaded[0]!);
    expect(stlKind(merged)).toBe('binary');
    expect(triangleCount(merged)).toBe(2 * triangleCount(left));
    expect(await screen.findByText('2 bite scans combined into one occlusion model (right.stl converted from ASCII STL)')).toBeTruthy();
  });

  it('two binary scans are merged without the converter', async () => {
    const toBinary = cubeConverter();
    const { input, onChange } = slot(toBinary);
    const bin = binaryStl(cubeTriangles());
    fireEvent.change(input, { target: { files: [file('l.stl', bin), file('r.stl', bin)] } });
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(70));
    expect(toBinary).not.toHaveBeenCalled();
    expect(await screen.findByText('2 bite scans combined into one occlusion model')).toBeTruthy();
  });

  it('a file that is no STL among two is refused, naming it; nothing is converted or uploaded', async () => {
    for (const [locale, text] of [
      ['en', 'right.stl is not a valid STL file'],
      ['zh', 'right.stl 不是有效的 STL 文件'],
      ['de', 'right.stl ist keine gültige STL-Datei'],
    ] as const) {
      useLocale(locale);
      const toBinary = cubeConverter();
      const { input, onChange } = slot(toBinary);
      fireEvent.change(input, { target: { files: [file('left.stl', binaryStl(cubeTriangles())), file('right.stl', garbage(2000))] } });
      expect(await screen.findByText(text)).toBeTruthy();
      refusedWithoutValue(onChange);
      expect(toBinary).not.toHaveBeenCalled();
      expect(uploaded).toHaveLength(0);
      cleanup();
    }
    useLocale('en');
  });

  it('a failed conversion is refused, naming the scan and the reason; nothing is uploaded', async () => {
    for (const [locale, text] of [
      ['en', 'right.stl could not be converted to binary STL: '],
      ['zh', 'right.stl 无法转换为二进制 STL：'],
      ['de', 'right.stl konnte nicht in Binär-STL umgewandelt werden: '],
    ] as const) {
      useLocale(locale);
      const toBinary = vi.fn<Converter>(async () => {
        throw new GeometryError("STL_MALFORMED", "bad facet", { line: 3 });
      });
      const { input, onChange } = slot(toBinary);
      fireEvent.change(input, { target: { files: [file('left.stl', binaryStl(cubeTriangles())), file('right.stl', asciiStl(cubeTriangles()))] } });
      expect(await screen.findByText((t) => t.startsWith(text))).toBeTruthy();
      refusedWithoutValue(onChange);
      expect(uploaded).toHaveLength(0);
      cleanup();
    }
    useLocale('en');
  });

  it('more than two files are refused', async () => {
    const { input, onChange } = slot(cubeConverter());
    const bin = binaryStl(cubeTriangles());
    fireEvent.change(input, { target: { files: [file('a.stl', bin), file('b.stl', bin), file('c.stl', bin)] } });
    expect(await screen.findByText('Choose one or two bite scans')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });
});
