// @vitest-environment jsdom
// Markdown of help articles and release notes: rendered, and stripped of anything that runs.
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/modules/help/markdown.tsx';
import { treeOrder } from '../../src/modules/dict/views/list.tsx';

describe('renderMarkdown', () => {
  it('renders headings, lists, emphasis and tables', () => {
    const html = renderMarkdown('# Title\n\n- one\n- **two**\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(doc.querySelector('h1')?.textContent).toBe('Title');
    expect([...doc.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(doc.querySelector('strong')?.textContent).toBe('two');
    expect(doc.querySelectorAll('td')).toHaveLength(2);
  });

  it('drops scripts, event handlers and javascript: links; links open in a new tab', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\nText <img src="x.png" onerror="alert(2)"> [bad](javascript:alert(3)) [good](https://example.com)\n\n<iframe src="https://evil"></iframe>',
    );
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(doc.querySelector('script')).toBeNull();
    expect(doc.querySelector('iframe')).toBeNull();
    expect(doc.querySelector('img')?.getAttribute('src')).toBe('x.png');
    expect(doc.querySelector('img')?.getAttribute('onerror')).toBeNull();
    const links = [...doc.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).not.toContain('javascript:alert(3)');
    const good = links.find((a) => a.textContent === 'good')!;
    expect(good.getAttribute('target')).toBe('_blank');
    expect(good.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('answers an empty string for no content', () => {
    expect(renderMarkdown(null)).toBe('');
  });
});

describe('dictionary entries in tree order', () => {
  it('puts children under their parent by orderNum, with depth; orphans become roots', () => {
    const rows = [
      { id: 1, name: 'B', parentId: null, orderNum: 2 },
      { id: 2, name: 'A', parentId: null, orderNum: 1 },
      { id: 3, name: 'A2', parentId: 2, orderNum: 2 },
      { id: 4, name: 'A1', parentId: 2, orderNum: 1 },
      { id: 5, name: 'A1a', parentId: 4, orderNum: 0 },
      { id: 6, name: 'Lost', parentId: 99, orderNum: 3 },
    ];
    expect(treeOrder(rows).map((r) => [r.name, r._depth])).toEqual([
      ['A', 0],
      ['A1', 1],
      ['A1a', 2],
      ['A2', 1],
      ['B', 0],
      ['Lost', 0],
    ]);
  });
});
