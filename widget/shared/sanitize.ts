import DOMPurify from 'dompurify';

/** Tags of documentation content that may show in a preview. No forms, frames, media, SVG or MathML. */
const CONTENT_TAGS = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'col',
  'colgroup',
  'dd',
  'del',
  'details',
  'dfn',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'section',
  'small',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
  'var',
];
/** No `style` (it would break a strict style-src and can restyle), no `id` (targets belong to the page). */
const CONTENT_ATTRIBUTES = [
  'href',
  'src',
  'srcset',
  'alt',
  'title',
  'class',
  'colspan',
  'rowspan',
  'width',
  'height',
  'lang',
  'dir',
  'start',
  'reversed',
];
/** Only web links and in-page fragments: no `javascript:`, `data:`, `vbscript:` or relative surprises. */
const SAFE_URL = /^(?:https?:|mailto:|#)/i;

const purifier = DOMPurify();
purifier.addHook('afterSanitizeAttributes', (node) => {
  for (const name of ['href', 'src']) {
    const value = node.getAttribute(name);
    if (value !== null && !SAFE_URL.test(value.trim())) node.removeAttribute(name);
  }
  if (node.hasAttribute('srcset') && /(?:^|,)\s*(?!https?:)\S/i.test(node.getAttribute('srcset')!)) node.removeAttribute('srcset');
  if (node.tagName === 'A' && node.hasAttribute('href')) node.setAttribute('rel', 'noopener');
});

/** Search highlights: text with `<span>` around matches; anything else is dropped or shown as text. */
export function sanitizeHighlight(html: string): string {
  return purifier.sanitize(html, { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: [], KEEP_CONTENT: true });
}

/** Section HTML from the embed API, reduced to inert documentation markup. */
export function sanitizeContent(html: string): string {
  return purifier.sanitize(html, {
    ALLOWED_TAGS: CONTENT_TAGS,
    ALLOWED_ATTR: [...CONTENT_ATTRIBUTES, 'rel'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    KEEP_CONTENT: true,
    FORBID_TAGS: ['style', 'script', 'template', 'base', 'link', 'meta', 'iframe', 'object', 'embed', 'form', 'svg', 'math'],
  });
}
