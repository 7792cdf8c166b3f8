import type { Element } from 'domhandler';
import { findSection, toHtml, withAbsoluteReferences } from './find-section.ts';
import { absolutizedFragment } from './html/links.ts';
import { parseBodyContent, parseHtml, type ParsedHtml } from './html/parse.ts';
import {
  cutFromListing,
  hasTextBeyondTitle,
  labelledWithin,
  previewOf,
  previewOfElement,
  previewOfTarget,
  type Preview,
} from './preview.ts';
import { percentDecoded } from './structure/tree.ts';

/**
 * The embed endpoint's work on HTML, as plain data in and out, so that it can run in a worker thread
 * (where a page's cost, chosen by whoever wrote it, cannot hold up the proxy).
 */
export interface EmbedJobs {
  /** A section of a page the proxy fetched itself, or null when the page has none by that name. */
  section: {
    input: {
      /** The page's HTML, UTF-8. */
      page: Uint8Array;
      pageUrl: string;
      fragment: string;
      doctool: string | null;
      /** A selector `simpleSelector` let through. */
      maincontent: string | null;
      preview: boolean;
    };
    output: { content: string; preview?: Preview } | null;
  };
  /**
   * A section the upstream extracted, links made absolute; with `preview`, its preview alone (a section may be
   * hundreds of KB: it is not written out again for a few blocks).
   */
  upstreamSection: {
    /** `fragment`: the id the section was asked by ('' for a page's opening). */
    input: { content: string; pageUrl: string; fragment: string; preview: boolean };
    /**
     * `readAround`: the section is not what the target is (a piece of a code listing, or the section an empty label
     * in its middle stands in), which the page around the target tells.
     */
    output: { content: string } | { preview: Preview; previewHasText: boolean; readAround: boolean };
  };
  /** The preview of what `#fragment` points to in a page's content from the upstream. */
  targetPreview: {
    /** `page`: the content, UTF-8. */
    input: { page: Uint8Array; pageUrl: string; fragment: string };
    output: Preview | null;
  };
}

export type EmbedJobKind = keyof EmbedJobs;
export type EmbedJobInput<K extends EmbedJobKind> = EmbedJobs[K]['input'];
export type EmbedJobOutput<K extends EmbedJobKind> = EmbedJobs[K]['output'];

const decoder = new TextDecoder();

type SectionQuery = Omit<EmbedJobInput<'section'>, 'page'>;

/** The section `query` names in a parsed page: its fragment as written in the URL, then percent-decoded as a browser would. */
function sectionIn(parsed: ParsedHtml, { fragment, doctool, maincontent }: SectionQuery): Element | undefined {
  const candidates = fragment ? [fragment, percentDecoded(fragment)] : [fragment];
  return candidates.map((candidate) => findSection(parsed, { fragment: candidate, doctool, maincontent })).find(Boolean);
}

/**
 * What the link points to, read around the target in the page (what an empty target labels, the blocks
 * under a bare heading, the text after an empty definition), else the start of its section.
 */
function previewIn(parsed: ParsedHtml, section: Element, { fragment, pageUrl }: SectionQuery): Preview {
  return (fragment && previewOfTarget(parsed, fragment, pageUrl)) || previewOfElement(section, pageUrl);
}

/**
 * The section `query` names in a parsed page, links absolute, and its preview when asked: what the
 * embed endpoint answers for a page it read itself.
 */
export function sectionOf(parsed: ParsedHtml, query: SectionQuery): EmbedJobOutput<'section'> {
  const section = sectionIn(parsed, query);
  if (!section) return null;
  const content = toHtml(withAbsoluteReferences(section, query.pageUrl));
  return query.preview ? { content, preview: previewIn(parsed, section, query) } : { content };
}

/** Only the preview of what `sectionOf` answers (what `doclens build` writes for every link): the section's HTML is never made. */
export function previewOfSection(parsed: ParsedHtml, query: SectionQuery): Preview | null {
  // What `previewIn` answers first, for most targets: their section (cheerio over Sphinx's rules) is only looked for without it.
  const target = query.fragment ? previewOfTarget(parsed, query.fragment, query.pageUrl) : null;
  if (target) return target;
  const section = sectionIn(parsed, query);
  return section ? previewIn(parsed, section, query) : null;
}

const jobs: { [K in EmbedJobKind]: (input: EmbedJobInput<K>) => EmbedJobOutput<K> } = {
  section({ page, ...query }) {
    return sectionOf(parseHtml(decoder.decode(page)), query);
  },
  upstreamSection({ content, pageUrl, fragment, preview }) {
    // Upstream content gets the same link rewriting as the proxy's own extraction.
    const nodes = absolutizedFragment(content, pageUrl);
    if (!preview) return { content: toHtml(nodes) };
    // Read before the preview changes the nodes.
    const readAround = cutFromListing(nodes) || labelledWithin(nodes, fragment);
    const start = previewOf(nodes, { pageUrl, fragment });
    return { preview: start, previewHasText: hasTextBeyondTitle(start), readAround };
  },
  targetPreview({ page, pageUrl, fragment }) {
    return previewOfTarget(parseBodyContent(decoder.decode(page)), fragment, pageUrl);
  },
};

/** Runs one job of the embed endpoint. */
export function runEmbedJob<K extends EmbedJobKind>(kind: K, input: EmbedJobInput<K>): EmbedJobOutput<K> {
  return (jobs[kind] as (input: EmbedJobInput<K>) => EmbedJobOutput<K>)(input);
}
