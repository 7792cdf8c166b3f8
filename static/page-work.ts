import { compile, selectOne } from 'css-select';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import type { StaticPreviewFile, StaticPreviews } from '../contract/index.ts';
import { parseContent, type ParsedHtml } from '../extraction/html/parse.ts';
import { headsBeforeBody, parseRefresh, refreshContent } from '../extraction/html/refresh.ts';
import { previewOfSection } from '../extraction/jobs.ts';
import { splitParsed } from '../extraction/sections.ts';
import type { SplitPage } from '../extraction/structure/split-page.ts';
import { readParts } from '../host/pages.ts';
import type { SavedPart } from '../search/index.ts';
import { FragmentLinks, LinkTargets } from './links.ts';

/** The build's work on pages, as plain data in and out, so that worker threads can do it. */
export interface PageJobs {
  /**
   * A page read once: its links to fragments, its sections for the search, and its previews, of the
   * targets in it that the site's links read so far point to and of those its own links point to.
   */
  page: {
    input: {
      file: string;
      /** Its URL under the origin the build writes links under. */
      pageUrl: string;
      /** Its `pagePath`, and the folders of the site's versions: which of its links point into it. */
      path: string;
      versionPaths: string[];
      /** The targets in it that the pages read before link to. */
      fragments: string[];
      /** Its path below its version's folder, when the search indexes it. */
      indexedAs: string | undefined;
      /** Its previews' files, but for the end of their names (see `previewFiles`). */
      previewsAt: string;
    };
    output: {
      /** Its links to fragments (see `FragmentLinks`). */
      links: string[];
      split: SplitPage | undefined;
      /** The targets previewed, in the order the previews' file has them. */
      fragments: string[];
      /**
       * Where the page forwards the reader at once, as `<pagePath>#<fragment>` (the fragment may be empty),
       * when that is another page of its version: then it has no previews of its own (none are written).
       */
      forward: string | undefined;
    } & WrittenPreviews;
  };
  /** A page's previews again, of all the targets in it the site links to, in place of those the first read wrote. */
  previews: {
    input: {
      file: string;
      pageUrl: string;
      fragments: string[];
      /**
       * The targets the first read previewed: their previews are taken from its files, not made again;
       * undefined where it wrote none (the page forwards to one that turned out not to be the site's).
       */
      previewed: string[] | undefined;
      previewsAt: string;
      /** Parts the first read wrote (`WrittenPreviews.parts`): those beyond the new ones' are removed. */
      writtenParts: number;
    };
    output: WrittenPreviews;
  };
  /**
   * Parts of a search index, compressed and written here while the main thread makes the next: at the
   * end of the build the page threads are idle, and a part's compression and file cost more than making it.
   */
  parts: {
    input: {
      /** The index's folder: each part is written to `<name>.json.gz` in it. */
      folder: string;
      parts: SavedPart[];
    };
    /** Bytes written. */
    output: number;
  };
}

/** What a page's previews' files hold. */
interface WrittenPreviews {
  /** Previews written, their files' bytes, and how many files beside the first (see `previewFiles`). */
  previews: number;
  bytes: number;
  parts: number;
}

export type PageJobKind = keyof PageJobs;
export type PageJobInput<K extends PageJobKind> = PageJobs[K]['input'];
export type PageJobOutput<K extends PageJobKind> = PageJobs[K]['output'];

/** Pages a Sphinx theme builds, whose sections follow Sphinx's rules (definitions, glossaries): compiled once, not for each page. */
const SPHINX_PAGE = compile('script[src*="documentation_options.js"], script#documentation_options, #documentation_options');

/** The most a hover downloads of a page's previews, roughly: beyond it, they are written in parts. */
const PREVIEW_PART_BYTES = 64 * 1024;

/** A page's preview files' JSON, by the end of their names (`.json`, `.0.json`, …): see `StaticPreviewFile`. */
function previewFiles(previews: StaticPreviews): [string, string][] {
  const whole = JSON.stringify({ previews } satisfies StaticPreviewFile);
  // The bound is on the previews, not on the file's `{"previews":…}` around them.
  if (whole.length - '{"previews":}'.length <= PREVIEW_PART_BYTES) return [['.json', whole]];
  const { '': opening, ...targets } = previews;
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
  return [['.json', JSON.stringify(main)], ...parts.map((part, index): [string, string] => [`.${index}.json`, JSON.stringify(part)])];
}

/**
 * Where a page forwards the reader at once (a refresh without delay) when that is another page of its
 * version, as `<pagePath>#<fragment>`; `path`: the page's `pagePath`.
 */
function forwardOf(parsed: ParsedHtml, pageUrl: string, path: string, pages: LinkTargets): string | undefined {
  const content = refreshContent(headsBeforeBody(parsed.document));
  const refresh = content === undefined ? undefined : parseRefresh(content, pageUrl);
  if (refresh?.delay !== 0 || refresh.url.origin !== new URL(pageUrl).origin) return undefined;
  let target: string | undefined;
  try {
    target = pages.pageOf(decodeURIComponent(refresh.url.pathname.slice(1)));
  } catch {
    return undefined;
  }
  const same = target !== undefined && target !== path && pages.folderOf(target) === pages.folderOf(path);
  return same ? `${target}${refresh.url.hash || '#'}` : undefined;
}

/** Folders made by this thread. */
const folders = new Set<string>();

/** Makes a folder unless this thread made it already. */
function madeFolder(folder: string): void {
  if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
  folders.add(folder);
}

/** The previews of the targets `fragments` name in a parsed page ('' for its opening). */
function previewsOf(parsed: ParsedHtml, pageUrl: string, fragments: readonly string[]): StaticPreviews {
  // css-select straight on the tree, as cheerio would but without wrapping the page first (a twentieth of the build).
  const doctool = selectOne(SPHINX_PAGE, parsed.document) ? 'sphinx' : null;
  const previews: StaticPreviews = {};
  for (const fragment of fragments) {
    const preview = previewOfSection(parsed, { pageUrl: `${pageUrl}#${fragment}`, fragment, doctool, maincontent: null, preview: true });
    if (preview) previews[fragment] = preview;
  }
  return previews;
}

/**
 * Writes a page's previews' files, here rather than in the main thread, which adds the pages' sections
 * to the index meanwhile; removes the parts beyond them that an earlier write left. Synchronously: a
 * page thread has nothing else to do meanwhile, and each of the promises' steps (open, write, close)
 * cost the thread more than the whole write.
 */
function writePreviews(previewsAt: string, previews: StaticPreviews, writtenParts = 0): WrittenPreviews {
  madeFolder(dirname(previewsAt));
  const files = previewFiles(previews);
  let bytes = 0;
  for (const [name, json] of files) {
    bytes += Buffer.byteLength(json);
    writeFileSync(`${previewsAt}${name}`, json);
  }
  const parts = files.length - 1;
  for (let part = parts; part < writtenParts; part++) rmSync(`${previewsAt}.${part}.json`);
  return { previews: Object.keys(previews).length, bytes, parts };
}

/** The previews a page's files hold (as `writePreviews` wrote them, in `parts` parts beside the first file). */
function readPreviews(previewsAt: string, parts: number): StaticPreviews {
  const { previews } = JSON.parse(readFileSync(`${previewsAt}.json`, 'utf8')) as StaticPreviewFile;
  for (let part = 0; part < parts; part++)
    Object.assign(previews, JSON.parse(readFileSync(`${previewsAt}.${part}.json`, 'utf8')) as StaticPreviews);
  return previews;
}

const jobs: { [K in PageJobKind]: (input: PageJobInput<K>) => PageJobOutput<K> } = {
  /**
   * From one parse: the tree indexing parses (the main content whole; of the rest, the links to
   * fragments), where the targets are, and the start tags of the whole page, where the links are.
   */
  page({ file, pageUrl, path, versionPaths, fragments, indexedAs, previewsAt }) {
    const links = new FragmentLinks(pageUrl);
    const parsed = parseContent(readParts(file), links.observe);
    const own = new LinkTargets(versionPaths);
    const forward = forwardOf(parsed, pageUrl, path, own);
    let written: Pick<PageJobOutput<'page'>, 'fragments'> & WrittenPreviews = { fragments: [], previews: 0, bytes: 0, parts: 0 };
    if (forward === undefined) {
      own.add(links.list());
      const previewed = [...new Set([...fragments, ...own.of(path)])];
      written = { fragments: previewed, ...writePreviews(previewsAt, previewsOf(parsed, pageUrl, ['', ...previewed])) };
    }
    // After the previews: splitting takes the noise out of the tree.
    const split = indexedAs === undefined ? undefined : splitParsed(parsed, indexedAs);
    return { links: links.list(), split, forward, ...written };
  },
  /**
   * Only the targets the first read did not preview are previewed (a page read again is most often an
   * API reference of hundreds of targets, a few of them new); the others' previews come from its files.
   */
  previews({ file, pageUrl, fragments, previewed, previewsAt, writtenParts }) {
    const before = new Set(previewed && ['', ...previewed]);
    const added = ['', ...fragments].filter((fragment) => !before.has(fragment));
    const made = added.length ? previewsOf(parseContent(readParts(file)), pageUrl, added) : {};
    const written = previewed ? readPreviews(previewsAt, writtenParts) : {};
    // In the order a first read would have written them: the opening, then the targets.
    const previews: StaticPreviews = {};
    for (const fragment of ['', ...fragments]) {
      const preview = before.has(fragment) ? written[fragment] : made[fragment];
      if (preview) previews[fragment] = preview;
    }
    return writePreviews(previewsAt, previews, writtenParts);
  },
  parts({ folder, parts }) {
    madeFolder(folder);
    let bytes = 0;
    for (const { name, json } of parts) {
      const compressed = gzipSync(json, { level: constants.Z_BEST_COMPRESSION });
      writeFileSync(join(folder, `${name}.json.gz`), compressed);
      bytes += compressed.length;
    }
    return bytes;
  },
};

/** Does a job. */
export function workOn<K extends PageJobKind>(kind: K, input: PageJobInput<K>): PageJobOutput<K> {
  return (jobs[kind] as (input: PageJobInput<K>) => PageJobOutput<K>)(input);
}
