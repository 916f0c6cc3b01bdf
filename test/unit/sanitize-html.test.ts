// The server's allow-list for user HTML (rich text) and rendered markdown: script injection in
// every usual form comes out inert, ordinary formatting survives.
import { describe, expect, it } from 'vitest';
import { markdownToSafeHtml, sanitizeRichText } from '../../server/core/sanitize-html.ts';

const ATTACKS: Record<string, string> = {
  'script tag': '<p>a</p><script>alert(1)</script>',
  'script tag, odd case': '<ScRiPt src="https://evil.example/x.js"></sCrIpT>',
  'on* handler': '<p onclick="alert(1)" onmouseover="alert(2)">a</p>',
  'img onerror': '<img src="x" onerror="alert(1)">',
  'javascript: link': '<a href="javascript:alert(1)">a</a>',
  'javascript: link, entity-encoded': '<a href="jav&#x61;script:alert(1)">a</a>',
  'javascript: link, spaced': '<a href=" javascript:alert(1)">a</a>',
  'vbscript: link': '<a href="vbscript:msgbox(1)">a</a>',
  'data: html link': '<a href="data:text/html,<script>alert(1)</script>">a</a>',
  'svg onload': '<svg onload="alert(1)"><circle r="1"/></svg>',
  'svg script': '<svg><script>alert(1)</script></svg>',
  'style expression': '<span style="width: expression(alert(1))">a</span>',
  'style tag': '<style>body{background:url("javascript:alert(1)")}</style>',
  iframe: '<iframe src="https://evil.example"></iframe>',
  'iframe srcdoc': '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  'object and embed': '<object data="x.swf"></object><embed src="x.swf">',
  'form action': '<form action="javascript:alert(1)"><button>go</button></form>',
  'meta refresh': '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  'img javascript src': '<img src="javascript:alert(1)">',
  'img data svg': '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  'math xlink': '<math><a xlink:href="javascript:alert(1)">a</a></math>',
  'base tag': '<base href="https://evil.example/">',
};

/** Nothing left that a browser would run. */
function inert(html: string) {
  expect(html).not.toMatch(/<script|<iframe|<object|<embed|<svg|<style|<form|<meta|<base|<math/i);
  expect(html).not.toMatch(/\son\w+=/i);
  // No attribute carries a script URL (the words may stay as text).
  expect(html).not.toMatch(/=\s*"\s*(javascript|vbscript|data:text|data:image\/svg)/i);
  expect(html).not.toMatch(/srcdoc|style=|xlink/i);
}

describe('rich text', () => {
  for (const [name, html] of Object.entries(ATTACKS)) {
    it(`neutralises ${name}`, () => inert(sanitizeRichText(html)));
  }

  it('keeps formatting, links to http(s) and this origin, images from this origin', () => {
    const html =
      '<h2>T</h2><p><strong>b</strong> <em>i</em> <s>s</s> <a href="https://example.com">l</a></p><ul><li>x</li></ul>' +
      '<pre><code class="language-js">let a</code></pre><img src="/admin/base/open/file/1/abc" alt="p">';
    expect(sanitizeRichText(html)).toBe(
      '<h2>T</h2><p><strong>b</strong> <em>i</em> <s>s</s> <a href="https://example.com" target="_blank" rel="noopener noreferrer">l</a></p><ul><li>x</li></ul>' +
        '<pre><code class="language-js">let a</code></pre><img src="/admin/base/open/file/1/abc" alt="p" />',
    );
  });

  it('drops classes other than a code language', () => {
    expect(sanitizeRichText('<code class="language-ts evil">x</code><p class="x">y</p>')).toBe('<code class="language-ts">x</code><p>y</p>');
  });
});

describe('markdown', () => {
  for (const [name, html] of Object.entries(ATTACKS)) {
    it(`neutralises ${name} inside markdown`, () => inert(markdownToSafeHtml(`# Title\n\nSome *text*.\n\n${html}\n`)));
  }

  it('neutralises markdown links and images with script URLs', () => {
    inert(markdownToSafeHtml('[a](javascript:alert(1)) ![i](javascript:alert(2)) [b](JAVASCRIPT:alert(3)) <javascript:alert(4)>'));
  });

  it('renders ordinary markdown', () => {
    const html = markdownToSafeHtml('# Hi\n\n- a\n- b\n\n`code` [l](https://example.com) ![p](/admin/base/open/file/2/xyz)');
    expect(html).toContain('<h1>Hi</h1>');
    expect(html).toContain('<li>a</li>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">l</a>');
    expect(html).toContain('<img src="/admin/base/open/file/2/xyz" alt="p" />');
  });
});
