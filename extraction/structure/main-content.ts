import { PageStructure } from './page-structure.ts';
import { mayHoldSurroundings } from './surroundings.ts';
import { findFirst, type TreeAdapter } from './tree.ts';

export interface MainContentOptions<Node, Element extends Node> {
  /** The page's path, to tell links to this page from links to others. */
  pagePath?: string;
  /** The structure of the same root, when the caller has measured it already. */
  structure?: PageStructure<Node, Element>;
  /**
   * Whether a marked main that also holds navigation or sidebars is narrowed to the content within
   * (what the widget wants of its preview container). The Embed API takes a marked main whole, as the
   * hosting service does.
   */
  narrowMarked?: boolean;
}

/** The content a page marks as main itself: `role="main"`, then `<main>` (where the hosting service looks). */
export function markedMainContent<Node, Element extends Node>(tree: TreeAdapter<Node, Element>, root: Element): Element | undefined {
  return (
    findFirst(tree, root, (element) => tree.attribute(element, 'role') === 'main') ??
    findFirst(tree, root, (element) => tree.tagName(element) === 'main')
  );
}

/**
 * The main content of the page below `root` (its `<body>`): where the page marks it, or else the region
 * its structure shows (see {@link PageStructure.mainContent}).
 */
export function findMainContent<Node, Element extends Node>(
  tree: TreeAdapter<Node, Element>,
  root: Element,
  options: MainContentOptions<Node, Element> = {},
): Element {
  const { pagePath = '', narrowMarked = false } = options;
  const marked = markedMainContent(tree, root);
  // Most marked mains hold the content alone: a quick look tells without measuring the page.
  if (marked && !(narrowMarked && mayHoldSurroundings(tree, marked))) return marked;
  if (!marked) return (options.structure ?? new PageStructure(tree, root, pagePath)).mainContent();
  const structure = new PageStructure(tree, marked, pagePath);
  return structure.hasSurroundings() ? structure.mainContent() : marked;
}
