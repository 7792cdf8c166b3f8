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

/** What a preview's sanitizers share: an element dropped keeps its text; no data or ARIA attributes. */
const INERT = { ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false, KEEP_CONTENT: true } as const;

const CONTENT_CONFIG = {
  ...INERT,
  ALLOWED_TAGS: CONTENT_TAGS,
  ALLOWED_ATTR: [...CONTENT_ATTRIBUTES, 'rel'],
  FORBID_TAGS: ['style', 'script', 'template', 'base', 'link', 'meta', 'iframe', 'object', 'embed', 'form', 'svg', 'math'],
};

/**
 * Section HTML from the embed API, reduced to inert documentation markup, as nodes of this document (parsed by DOMPurify
 * under its own Trusted Types policy, never by `innerHTML`).
 */
export function sanitizedContent(html: string): DocumentFragment {
  return purifier.sanitize(html, { ...CONTENT_CONFIG, RETURN_DOM_FRAGMENT: true });
}

/**
 * MathML Core's presentation elements, and `menclose` (`\boxed`, `\cancel`): what doclens writes from a preview's
 * formulas (`preview/math.ts`). No `maction`, `annotation-xml` or `semantics`, which hold other markup.
 */
const MATH_TAGS = [
  'math',
  'menclose',
  'merror',
  'mfrac',
  'mi',
  'mmultiscripts',
  'mn',
  'mo',
  'mover',
  'mpadded',
  'mphantom',
  'mprescripts',
  'mroot',
  'mrow',
  'ms',
  'mspace',
  'msqrt',
  'mstyle',
  'msub',
  'msubsup',
  'msup',
  'mtable',
  'mtd',
  'mtext',
  'mtr',
  'munder',
  'munderover',
  'none',
];
/** Layout only: no `href`, `style`, `id` or colours. */
const MATH_ATTRIBUTES = [
  'accent',
  'accentunder',
  'columnalign',
  'columnlines',
  'columnspan',
  'depth',
  'display',
  'displaystyle',
  'fence',
  'form',
  'largeop',
  'linethickness',
  'lspace',
  'mathvariant',
  'maxsize',
  'minsize',
  'movablelimits',
  'notation',
  'rowalign',
  'rowlines',
  'rspace',
  'scriptlevel',
  'separator',
  'stretchy',
  'symmetric',
  'voffset',
];

/** MathML that doclens wrote from a formula's TeX, in a `<span>`, reduced to its layout where it is. */
export function sanitizeMath(holder: HTMLSpanElement): HTMLSpanElement {
  purifier.sanitize(holder, {
    ...INERT,
    ALLOWED_TAGS: ['span', ...MATH_TAGS],
    ALLOWED_ATTR: ['class', ...MATH_ATTRIBUTES],
    IN_PLACE: true,
  });
  return holder;
}

/** Preview HTML whose formulas doclens wrote in MathML: the content's markup and MathML's layout, nothing else. */
export function sanitizeContentWithMath(html: string): string {
  return purifier.sanitize(html, {
    ...CONTENT_CONFIG,
    ALLOWED_TAGS: [...CONTENT_TAGS, ...MATH_TAGS],
    ALLOWED_ATTR: [...CONTENT_CONFIG.ALLOWED_ATTR, ...MATH_ATTRIBUTES],
    FORBID_TAGS: CONTENT_CONFIG.FORBID_TAGS.filter((tag) => tag !== 'math'),
  });
}
