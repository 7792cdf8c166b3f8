import { isTag, type AnyNode, type Element } from 'domhandler';
import { toHtml, withAbsoluteReferences } from './embed.ts';
import { descendants, hasClass, nextElementSibling, parseFragment, textOf, type ParsedHtml } from './parse.ts';
import { normalizeSpace } from './sections.ts';

export interface Preview {
  /** Plain-text title of the section (its heading, or the term a definition describes). */
  title: string;
  /** HTML of the first blocks of the section. */
  content: string;
  /** Whether the section has more than `content` shows. */
  truncated: boolean;
}

export interface PreviewLimits {
  maxBlocks: number;
  /** Upper bound on the length of `content`. */
  maxChars: number;
}

export const DEFAULT_PREVIEW_LIMITS: PreviewLimits = { maxBlocks: 3, maxChars: 4000 };

const HEADING = /^h[1-6]$/;
/** Wrappers whose children are the blocks (Sphinx sections, definition bodies, admonitions stay whole). */
const CONTAINERS = new Set(['section', 'div', 'article', 'main', 'dd', 'body']);

/** Sphinx's "¶" permalinks and similar: noise in a tooltip. */
function removePermalinks(root: Element): void {
  for (const element of [...descendants(root)]) {
    if (element.name === 'a' && (hasClass(element, 'headerlink') || hasClass(element, 'anchorlink'))) {
      const siblings = element.parent?.children;
      if (siblings) siblings.splice(siblings.indexOf(element), 1);
    }
  }
}

const elementsOf = (nodes: AnyNode[]): Element[] => nodes.filter(isTag);

/** A block cut to about `chars` characters of text, as a code block or paragraph. */
function shortened(block: Element, chars: number): string {
  const text = textOf(block);
  const cut = text.length > chars ? `${text.slice(0, chars).replace(/\s+\S*$/, '')}…` : text;
  const escaped = cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return block.name === 'pre' || block.name === 'div' && hasClass(block, 'highlight') ? `<pre>${escaped}</pre>` : `<p>${normalizeSpace(escaped)}</p>`;
}

/**
 * The tooltip form of an extracted section: its title and first blocks, bounded in size. Pure: the
 * section's HTML (links already absolute) in, the preview out.
 */
export function previewOf(sectionHtml: string, limits: PreviewLimits = DEFAULT_PREVIEW_LIMITS): Preview {
  const roots = elementsOf(parseFragment(sectionHtml));
  for (const root of roots) removePermalinks(root);
  let title = '';
  let blocks: Element[] = roots;
  const only = roots.length === 1 ? roots[0]! : undefined;
  if (only?.name === 'dl') {
    const term = elementsOf(only.children).find((child) => child.name === 'dt');
    const definition = elementsOf(only.children).find((child) => child.name === 'dd');
    blocks = definition ? elementsOf(definition.children) : [];
    if (term && hasClass(term, 'sig')) {
      // An API entry: the object's name as title, its full signature as the first block.
      const name = [...descendants(term)].filter((element) => hasClass(element, 'sig-prename') || hasClass(element, 'sig-name'));
      title = normalizeSpace(name.map(textOf).join('')) || normalizeSpace(textOf(term));
      blocks = [term, ...blocks];
    } else if (term) {
      // A glossary or other term: the title says it already.
      title = normalizeSpace(textOf(term));
    }
  } else {
    // Main content is often wrappers in wrappers (`div[role=main] > section`): the blocks are inside.
    while (blocks.length === 1 && CONTAINERS.has(blocks[0]!.name) && !hasClass(blocks[0]!, 'admonition')) blocks = elementsOf(blocks[0]!.children);
  }
  const heading = blocks.find((block) => HEADING.test(block.name));
  if (heading && blocks.indexOf(heading) === 0) {
    title = normalizeSpace(textOf(heading));
    blocks = blocks.slice(1);
  } else if (only?.name === 'dt' || (only && HEADING.test(only.name))) {
    title = normalizeSpace(textOf(only));
  }
  let content = '';
  let shown = 0;
  let truncated = false;
  for (const block of blocks) {
    if (shown >= limits.maxBlocks) break;
    const html = toHtml(block);
    if (content.length + html.length > limits.maxChars) {
      // A first block too large on its own (a long listing or table) still shows its beginning.
      if (shown === 0) {
        content = shortened(block, Math.floor(limits.maxChars / 2));
        shown++;
      }
      truncated = true;
      break;
    }
    content += (content ? '\n' : '') + html;
    shown++;
  }
  return { title, content, truncated: truncated || shown < blocks.length };
}

const headingRank = (element: Element) => (HEADING.test(element.name) ? Number(element.name[1]) : 0);

/** Whether section HTML is a heading alone: what the embed API gives for headings not wrapped in a section (MkDocs). */
export function isLoneHeading(sectionHtml: string): boolean {
  const roots = elementsOf(parseFragment(sectionHtml));
  return roots.length === 1 && headingRank(roots[0]!) > 0;
}

/**
 * The heading with id `id` and the blocks after it up to the next heading of the same or a higher
 * rank, links absolute: a section as a reader sees it on pages whose headings are not wrapped in
 * `<section>` elements.
 */
export function sectionUnderHeading(page: ParsedHtml, id: string, pageUrl: string): string | null {
  const heading = page.elementById(id);
  if (!heading || headingRank(heading) === 0) return null;
  const parts = [heading];
  for (let next = nextElementSibling(heading); next && !(headingRank(next) > 0 && headingRank(next) <= headingRank(heading)); next = nextElementSibling(next)) {
    parts.push(next);
  }
  return parts.map((part) => toHtml(withAbsoluteReferences(part, pageUrl))).join('\n');
}
