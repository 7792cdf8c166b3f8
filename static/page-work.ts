import { readFile } from 'node:fs/promises';
import type { StaticPreviews } from '../contract/index.ts';
import { parseContent } from '../extraction/html/parse.ts';
import { sectionOf } from '../extraction/jobs.ts';
import { splitParsed } from '../extraction/sections.ts';
import type { SplitPage } from '../extraction/structure/split-page.ts';

/** One page's work in the build, as plain data, so that a worker thread can do it. */
export interface PageJob {
  /** The page's file. */
  file: string;
  /** Its URL under the origin the build writes links under. */
  pageUrl: string;
  /** The targets in it that the site links to. */
  fragments: string[];
  /** Its path below its version's folder, when the search indexes it. */
  indexedAs: string | undefined;
}

export interface PageWork {
  previews: StaticPreviews;
  split: SplitPage | undefined;
  /** Characters of HTML read. */
  chars: number;
}

/** Pages a Sphinx theme builds, whose sections follow Sphinx's rules (definitions, glossaries). */
const SPHINX_PAGE = 'script[src*="documentation_options.js"], script#documentation_options, #documentation_options';

/**
 * A page's previews (of its opening and of every target the site links to in it) and its sections for
 * the search, from one parse: the tree indexing parses (the main content whole; of the rest, the links to
 * fragments), where the targets are.
 */
export async function workOn({ file, pageUrl, fragments, indexedAs }: PageJob): Promise<PageWork> {
  const html = await readFile(file, 'utf8');
  const parsed = parseContent(html);
  const doctool = parsed.$(SPHINX_PAGE).length > 0 ? 'sphinx' : null;
  const previews: StaticPreviews = {};
  for (const fragment of ['', ...fragments]) {
    const preview = sectionOf(parsed, { pageUrl: `${pageUrl}#${fragment}`, fragment, doctool, maincontent: null, preview: true })?.preview;
    if (preview) previews[fragment] = preview;
  }
  // After the previews: splitting takes the noise out of the tree.
  return { previews, split: indexedAs === undefined ? undefined : splitParsed(parsed, indexedAs), chars: html.length };
}
