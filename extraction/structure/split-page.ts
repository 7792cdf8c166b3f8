/** A page split into the sections a search index keeps: what extraction gives and the search engine (`search/`) takes. */
import type { PageKind } from './page-structure.ts';

/** One searchable part of a page: what a search hit links to (`page#id`) and the text it matches. */
export interface PageSection {
  /** Anchor of the section; empty for content before the first heading. */
  id: string;
  title: string;
  /**
   * Its text as the hosting service indexes it, which its Search and Embed APIs answer: the blocks
   * inside a paragraph's container run together ("Parameters:columnsstr").
   */
  content: string;
  /**
   * Its text as a reader sees it: the same words, with blocks, table cells and a definition term's
   * parts apart ("Parameters: columns str"). What search indexes and its excerpts show.
   */
  text: string;
  /** For documented objects (a Sphinx domain entry such as `py:function`), their role. */
  role?: string;
}

export interface SplitPage {
  /** What search results call the page: its heading, or the full name of the object it documents. */
  title: string;
  /** What the page calls itself (its heading, else its `<title>`): what queries are matched against. */
  name: string;
  sections: PageSection[];
  /** Generated indexes and search pages are no search results. */
  kind: PageKind;
  /** The `<title>`, whitespace normalized ('' without one). */
  documentTitle: string;
  /**
   * How much of the content is entries led by a link to another page (0 to 1): near 1 on an overview
   * (a module's summary table), whose lines belong to the pages they link to.
   */
  entryShare: number;
}
