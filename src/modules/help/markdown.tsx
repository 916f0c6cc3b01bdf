/**
 * Markdown as safe HTML: marked renders, DOMPurify strips scripts, event handlers and
 * javascript: links, and links open in a new tab. Shared by help articles, release notes and the
 * editor demo pages (also for HTML).
 */
import { useMemo } from 'react';
import { marked } from 'marked';
import DOMPurify from 'dompurify';
import { PROSE } from '../../kit/editors/prose.ts';

let hooked = false;

function hookLinks() {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
}

/** HTML without scripts, event handlers or javascript: links. */
export function sanitizeHtml(html: string | null | undefined): string {
  hookLinks();
  return DOMPurify.sanitize(html ?? '', { USE_PROFILES: { html: true } });
}

export function renderMarkdown(source: string | null | undefined): string {
  return sanitizeHtml(marked.parse(source ?? '', { async: false, gfm: true, breaks: true }));
}

/** Rendered markdown with readable typography (no typography plugin needed). */
export function Markdown({ source, className = '' }: { source: string | null | undefined; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <SafeHtml html={html} className={className} sanitized />;
}

/** HTML (sanitised here unless `sanitized`) with the same typography. */
export function SafeHtml({ html: source, className = '', sanitized = false }: { html: string | null | undefined; className?: string; sanitized?: boolean }) {
  const html = useMemo(() => (sanitized ? (source ?? '') : sanitizeHtml(source)), [source, sanitized]);
  return (
    <div
      className={`aw-markdown ${PROSE} ${className}`}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** The markdown editor of help articles and release notes: the kit's (toolbar, sanitised live
 * preview, image upload), loaded in its own chunk when a form shows it. */
export { MarkdownEditor } from '../../kit/editors/index.tsx';
