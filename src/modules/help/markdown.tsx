/**
 * Markdown as safe HTML: marked renders, DOMPurify strips scripts, event handlers and
 * javascript: links, and links open in a new tab. Shared by help articles and release notes.
 */
import { useMemo } from 'react';
import { marked } from 'marked';
import DOMPurify from 'dompurify';

let hooked = false;

export function renderMarkdown(source: string | null | undefined): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  const html = marked.parse(source ?? '', { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

/** Rendered markdown with readable typography (no typography plugin needed). */
export function Markdown({ source, className = '' }: { source: string | null | undefined; className?: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return (
    <div
      className={`aw-markdown text-sm leading-relaxed text-slate-700 [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-slate-200 [&_blockquote]:pl-3 [&_blockquote]:text-slate-500 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_h1]:mt-4 [&_h1]:mb-2 [&_h1]:text-xl [&_h1]:font-semibold [&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:mb-1 [&_h3]:font-semibold [&_img]:max-w-full [&_li]:my-0.5 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-2 [&_pre]:overflow-auto [&_pre]:rounded [&_pre]:bg-slate-100 [&_pre]:p-3 [&_table]:my-2 [&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-2 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 ${className}`}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** A markdown textarea with a live preview beside it (below on narrow screens). */
export function MarkdownEditor({
  id,
  value,
  onChange,
  disabled,
  previewLabel,
}: {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  previewLabel: string;
}) {
  return (
    <div className="grid w-full gap-3 md:grid-cols-2">
      <textarea
        id={id}
        className="aw-input h-auto min-h-72 resize-y py-2 font-mono text-[13px]"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
      />
      <div className="min-h-72 overflow-auto rounded-md border border-slate-200 bg-slate-50/50 px-4 py-2" aria-label={previewLabel} data-testid="markdown-preview">
        <Markdown source={value} />
      </div>
    </div>
  );
}
