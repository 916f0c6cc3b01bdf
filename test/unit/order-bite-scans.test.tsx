// @vitest-environment jsdom
// The order form's occlusion slot with two bite scans: an ASCII scan among them is refused with a
// message naming it (in en, zh and de) and nothing is uploaded; more than two files are refused.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { ModelUpload } from '../../src/modules/order/ModelUpload.tsx';
import { asciiStl, binaryStl, cubeTriangles } from '../fixtures/stl.ts';
import { useLocale } from './kit-harness.tsx';

afterEach(cleanup);

function file(name: string, bytes: Uint8Array): File {
  const f = new File([bytes.slice().buffer as ArrayBuffer], name, { type: 'model/stl' });
  // jsdom's File may lack arrayBuffer(): read the bytes we gave it.
  if (typeof f.arrayBuffer !== 'function') Object.defineProperty(f, 'arrayBuffer', { value: async () => bytes.slice().buffer });
  return f;
}

function slot() {
  const onChange = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <ModelUpload id="occlusion" value={null} onChange={onChange} disabled={false} invalid={false} pair />
    </I18nProvider>,
  );
  const input = document.getElementById('occlusion') as HTMLInputElement;
  expect(input.multiple).toBe(true);
  return { input, onChange };
}

describe('two bite scans in the occlusion slot', () => {
  it('an ASCII scan among two is refused, naming it; nothing is uploaded', async () => {
    for (const [locale, text] of [
      ['en', 'right.stl is an ASCII STL file'],
      ['zh', 'right.stl 是 ASCII 格式的 STL 文件'],
      ['de', 'right.stl ist eine ASCII-STL-Datei'],
    ] as const) {
      useLocale(locale);
      const { input, onChange } = slot();
      fireEvent.change(input, { target: { files: [file('left.stl', binaryStl(cubeTriangles())), file('right.stl', asciiStl(cubeTriangles()))] } });
      expect(await screen.findByText((t) => t.startsWith(text))).toBeTruthy();
      expect(onChange).not.toHaveBeenCalled();
      cleanup();
    }
    useLocale('en');
  });

  it('more than two files are refused', async () => {
    const { input, onChange } = slot();
    const bin = binaryStl(cubeTriangles());
    fireEvent.change(input, { target: { files: [file('a.stl', bin), file('b.stl', bin), file('c.stl', bin)] } });
    expect(await screen.findByText('Choose one or two bite scans')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });
});
