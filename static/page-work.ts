import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { StaticPreviewFile, StaticPreviews } from '../contract/index.ts';
import { parseContent } from '../extraction/html/parse.ts';
import { previewOfSection } from '../extraction/jobs.ts';
import { splitParsed } from '../extraction/sections.ts';
import type { SplitPage } from '../extraction/structure/split-page.ts';
import { fragmentLinks } from './links.ts';

/** The build's work on pages, as plain data in and out, so that worker threads can do it. */
export interface PageJobs {
  /** A page's links to fragments (see `fragmentLinks`): which targets of the site get previews. */
  links: {
    input: { file: string; pageUrl: string };
    output: { links: string[] };
  };
  /** A page's previews, written beside `previewsAt`, and its sections for the search. */
  page: {
    input: {
      file: string;
      /** Its URL under the origin the build writes links under. */
      pageUrl: string;
      /** The targets in it that the site links to. */
      fragments: string[];
      /** Its path below its version's folder, when the search indexes it. */
      indexedAs: string | undefined;
      /** Its previews' files, but for the end of their names (see `previewFiles`). */
      previewsAt: string;
    };
    output: {
      split: SplitPage | undefined;
      /** Previews written, and their files' bytes. */
      previews: number;
      bytes: number;
    };
  };
}

export type PageJobKind = keyof PageJobs;
export type PageJobInput<K extends PageJobKind> = PageJobs[K]['input'];
export type PageJobOutput<K extends PageJobKind> = PageJobs[K]['output'] & {
  /** Characters of HTML read. */
  chars: number;
};

/** Pages a Sphinx theme builds, whose sections follow Sphinx's rules (definitions, glossaries). */
const SPHINX_PAGE = 'script[src*="documentation_options.js"], script#documentation_options, #documentation_options';

/** The most a hover downloads of a page's previews, roughly: beyond it, they are written in parts. */
const PREVIEW_PART_BYTES = 64 * 1024;

/** A page's preview files, by the end of their names (`.json`, `.0.json`, …): see `StaticPreviewFile`. */
function previewFiles(previews: StaticPreviews): [string, StaticPreviewFile | StaticPreviews][] {
  const { '': opening, ...targets } = previews;
  if (JSON.stringify(previews).length <= PREVIEW_PART_BYTES) return [['.json', { previews }]];
  const parts: StaticPreviews[] = [];
  let size = Number.POSITIVE_INFINITY;
  for (const fragment of Object.keys(targets).sort()) {
    const length = JSON.stringify(targets[fragment]).length + fragment.length;
    if (size + length > PREVIEW_PART_BYTES) {
      parts.push({});
      size = 0;
    }
    parts.at(-1)![fragment] = targets[fragment]!;
    size += length;
  }
  const main: StaticPreviewFile = { previews: opening ? { '': opening } : {}, parts: parts.map((part) => Object.keys(part)[0]!) };
  return [['.json', main], ...parts.map((part, index): [string, StaticPreviews] => [`.${index}.json`, part])];
}

/** Folders made by this thread: each once. */
const folders = new Map<string, Promise<unknown>>();

const jobs: { [K in PageJobKind]: (input: PageJobInput<K>, html: string) => Promise<PageJobs[K]['output']> } = {
  links: async ({ pageUrl }, html) => ({ links: fragmentLinks(html, pageUrl) }),
  /**
   * From one parse: the tree indexing parses (the main content whole; of the rest, the links to
   * fragments), where the targets are.
   */
  async page({ pageUrl, fragments, indexedAs, previewsAt }, html) {
    const parsed = parseContent(html);
    const doctool = parsed.$(SPHINX_PAGE).length > 0 ? 'sphinx' : null;
    const previews: StaticPreviews = {};
    for (const fragment of ['', ...fragments]) {
      const preview = previewOfSection(parsed, { pageUrl: `${pageUrl}#${fragment}`, fragment, doctool, maincontent: null, preview: true });
      if (preview) previews[fragment] = preview;
    }
    // After the previews: splitting takes the noise out of the tree.
    const split = indexedAs === undefined ? undefined : splitParsed(parsed, indexedAs);
    // Written here, not by the main thread: it adds the pages' sections to the index meanwhile.
    const folder = dirname(previewsAt);
    const made = folders.get(folder) ?? mkdir(folder, { recursive: true });
    folders.set(folder, made);
    await made;
    let bytes = 0;
    for (const [name, data] of previewFiles(previews)) {
      const json = JSON.stringify(data);
      bytes += Buffer.byteLength(json);
      await writeFile(`${previewsAt}${name}`, json);
    }
    return { split, previews: Object.keys(previews).length, bytes };
  },
};

/** Does a job on the page it names. */
export async function workOn<K extends PageJobKind>(kind: K, input: PageJobInput<K>): Promise<PageJobOutput<K>> {
  const html = await readFile(input.file, 'utf8');
  const output = await (jobs[kind] as (input: PageJobInput<K>, html: string) => Promise<PageJobs[K]['output']>)(input, html);
  return { ...output, chars: html.length };
}
