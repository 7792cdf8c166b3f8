import { findFirst, type TreeAdapter } from './tree.ts';

/** Landmarks and widgets around the content: navigation, sidebars, site header and footer, search, dialogs. */
const AROUND_CONTENT_TAGS = new Set(['nav', 'aside', 'search', 'dialog']);
const AROUND_CONTENT_ROLES = new Set([
  'navigation',
  'complementary',
  'search',
  'banner',
  'contentinfo',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
]);
/** Inside these, `<header>` and `<footer>` belong to the content (an article's header), not to the site. */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/** Whether an element is marked as the page's main content: `<main>`, `role="main"`. */
export function marksMain(name: string, role: string | undefined): boolean {
  return name === 'main' || role === 'main';
}

/** Whether an element opens a part of the content, within which a header or footer is the content's own. */
export function opensSectioning(name: string, role: string | undefined): boolean {
  return SECTIONING.has(name) || role === 'main';
}

/** Whether an element is around the content rather than in it (see {@link AROUND_CONTENT_TAGS}). */
export function surroundsContent(name: string, role: string | undefined, inSectioning: boolean): boolean {
  if (AROUND_CONTENT_TAGS.has(name)) return true;
  if (role && AROUND_CONTENT_ROLES.has(role)) return true;
  return !inSectioning && (name === 'header' || name === 'footer');
}

/**
 * Whether a tree may hold navigation, sidebars, a site header or footer besides content: a quick look
 * at tags and roles that spares measuring trees (most sections) that hold none.
 */
export function mayHoldSurroundings<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, root: Element): boolean {
  return findFirst(tree, root, (element) => surroundsContent(tree.tagName(element), tree.attribute(element, 'role'), false)) !== undefined;
}
