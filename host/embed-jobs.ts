import { cloneNode, type Element } from 'domhandler';
import { findSection, InvalidSelectorError, toHtml, withAbsoluteReferences } from '../extraction/find-section.ts';
import { pageUrlOf } from '../extraction/html/links.ts';
import { descendants, textOf } from '../extraction/html/parse.ts';
import { findMainContent, removePermalinks } from '../extraction/html/structure.ts';
import { normalizeSpace } from '../extraction/sections.ts';
import { isHeadingName } from '../extraction/structure/tree.ts';
import { ParsedPages } from './pages.ts';

/**
 * The Embed API's work on a page, in the host's embed threads (`embed.ts` locates the page and answers):
 * a large page takes a second to parse, which the main thread, serving pages and searches, would wait for.
 * `bytes` is the size of the page's file, by which the job's working memory is reserved.
 */
export interface HostEmbedJobs {
  /** The v3 answer's section: `not_found` when the page or the section is not there. */
  v3: {
    input: { path: string; bytes: number; url: string; fragment: string; doctool: string | null; maincontent: string | null };
    output: { content: string } | 'not_found' | 'invalid_selector';
  };
  /** The v2 answer's sections (the page's content when no section is asked) and the page's headings; undefined without the page. */
  v2: {
    input: { path: string; bytes: number; pageUrl: string; section: string | undefined };
    output: { content: string[]; headers: Record<string, string>[] } | undefined;
  };
}

export type HostEmbedJobKind = keyof HostEmbedJobs;

/** Bytes of the pages a thread keeps parsed, as estimated from their HTML (see `ParsedPages`). */
const PARSED_BYTES = 128 * 1024 * 1024;

const pages = new ParsedPages(PARSED_BYTES);

/** A copy of a heading without its permalink (a `¶` or an icon, depending on the theme). */
function withoutPermalinks(heading: Element): Element {
  const copy = cloneNode(heading, true);
  removePermalinks(copy);
  return copy;
}

const jobs: { [K in HostEmbedJobKind]: (input: HostEmbedJobs[K]['input']) => HostEmbedJobs[K]['output'] } = {
  v3({ path, url, fragment, doctool, maincontent }) {
    const page = pages.get(path);
    if (!page) return 'not_found';
    let section: Element | undefined;
    try {
      section = findSection(page, { fragment, doctool, maincontent });
    } catch (error) {
      if (error instanceof InvalidSelectorError) return 'invalid_selector';
      throw error;
    }
    return section ? { content: toHtml(withAbsoluteReferences(section, pageUrlOf(url))) } : 'not_found';
  },
  v2({ path, pageUrl, section }) {
    const page = pages.get(path);
    if (!page) return undefined;
    const main = findMainContent(page);
    const found = section ? findSection(page, { fragment: section, doctool: 'sphinx' }) : main;
    const headings = main ? [...descendants(main)].filter((element) => isHeadingName(element.name)) : [];
    return {
      content: found ? [toHtml(withAbsoluteReferences(found, pageUrl))] : [],
      headers: headings.map((heading, index) => {
        const anchor = heading.attribs.id ?? (heading.parent && 'attribs' in heading.parent ? heading.parent.attribs.id : undefined);
        const title = normalizeSpace(textOf(withoutPermalinks(heading)));
        return { [title]: index === 0 && heading.name === 'h1' ? '#' : `#${anchor ?? ''}` };
      }),
    };
  },
};

/** Runs one embed job (in an embed thread: `embed-worker.ts`). */
export function runHostEmbedJob<K extends HostEmbedJobKind>(kind: K, input: HostEmbedJobs[K]['input']): HostEmbedJobs[K]['output'] {
  return (jobs[kind] as (input: HostEmbedJobs[K]['input']) => HostEmbedJobs[K]['output'])(input);
}
