// HTML from users (the rich text editor's output, markdown rendered to HTML) reduced to an
// allow-list before it is stored: text structure, links, images, tables and code only. No
// script, no event handler, no style attribute, no frame or object, links only to http(s),
// mailto and this origin, images only from http(s) and this origin.
import sanitizeHtml from 'sanitize-html';
import { marked } from 'marked';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'sub', 'sup',
    'mark', 'blockquote', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'img', 'span', 'div',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    th: ['colspan', 'rowspan', 'align'],
    td: ['colspan', 'rowspan', 'align'],
    ol: ['start'],
  },
  // Only a code block's language survives as a class.
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Dropped with their content, not kept as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template'],
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }, true),
  },
};
// The transform adds target and rel after the allow-list ran: allow them on links.
OPTIONS.allowedAttributes = { ...OPTIONS.allowedAttributes, a: ['href', 'title', 'target', 'rel'] };

/** Rich text (HTML) as it may be stored and shown. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Markdown rendered to HTML (GitHub flavour), through the same allow-list. */
export function markdownToSafeHtml(markdown: string): string {
  return sanitizeRichText(marked.parse(markdown, { async: false, gfm: true, breaks: true }));
}
