/**
 * The real-docs measure of previews: each sampled in-content link's preview, asked of the proxy as
 * the widget asks it, must carry text beyond its heading, and that text must be the target's. A
 * preview of its heading alone, or of what introduces it, is left out of the measure where the target
 * documents nothing.
 */
import { isTag, type AnyNode } from 'domhandler';
import type { EmbedPreview, ErrorBody } from '../../contract/index.ts';
import { domhandlerTree, findMainContent } from '../../extraction/html/structure.ts';
import { parseFragment, textOf } from '../../extraction/html/parse.ts';
import { normalizeSpace, splitSections } from '../../extraction/sections.ts';
import { isPermalink } from '../../extraction/structure/targets.ts';
import type { PageSection } from '../../extraction/structure/split-page.ts';
import { isHeadingName, percentDecoded } from '../../extraction/structure/tree.ts';
import { hasDocumentation } from '../../search/ranking.ts';
import { proxyGet, type SampledLink, type ServedSite } from './metrics.ts';

/** How a preview failed: no answer, no text beyond its heading, or text that is not the target's. */
export type PreviewFailure = 'error' | 'heading only' | 'text from elsewhere';

export interface PreviewOutcome extends SampledLink {
  failure: PreviewFailure | undefined;
  /** Why it failed: the error code, or the heading the preview stopped at. */
  reason: string;
  /** A heading alone, or what introduces the target, where it documents nothing (see `documentsNothing`): left out of the measure. */
  leftOut?: true;
}

/** Words a preview must carry besides its heading ("Bolometric flux." counts; "Example:" alone does not). */
const MIN_WORDS = 2;

/** Elements that start a new block of text. */
const BLOCK = /^(p|div|section|article|blockquote|pre|ul|ol|li|dl|dd|table|tr|td|th|figure|figcaption|hr|br)$/;

/**
 * Where an element with an id starts, in text from `blockText`: between characters no page text
 * holds. An empty id marks an `<h1>`: where the page's own text starts.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the marks are control characters because no page text holds them
const ID_MARK = /\u0001([^\u0002]*)\u0002/;
const PAGE_HEADING = '';

/**
 * Text one line per block (headings and definition terms their own lines, or left out), with the
 * ids of elements marked where they start when `ids` is `mark`; permalinks and `[source]` labels
 * left out, as previews leave them out.
 */
function blockText(node: AnyNode, headings: 'keep' | 'drop', ids: 'mark' | 'omit' = 'omit'): string {
  if (!isTag(node)) return 'children' in node ? node.children.map((child) => blockText(child, headings, ids)).join('') : textOf(node);
  if (isPermalink(domhandlerTree, node)) return '';
  // Headings, and the terms and signatures that head definitions: what a preview shows as its heading.
  const heading = isHeadingName(node.name) || node.name === 'dt';
  if (heading && headings === 'drop') return '\n';
  const marked = ids === 'mark' ? [node.name === 'h1' ? PAGE_HEADING : undefined, node.attribs.id || undefined] : [];
  const mark = marked
    .filter((id) => id !== undefined)
    .map((id) => `\u0001${id}\u0002`)
    .join('');
  const inner = node.children.map((child) => blockText(child, headings, ids)).join('');
  return heading || BLOCK.test(node.name) ? `${mark}\n${inner}\n` : `${mark}${inner}`;
}

const wordsOf = (text: string) => (text.match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => word.toLowerCase());

/** The preview's blocks of text besides its headings (and its title, when the first block repeats it). */
function blocksBeyondHeading(title: string, content: string): string[] {
  const blocks = parseFragment(content)
    .map((node) => blockText(node, 'drop'))
    .join('\n')
    .split('\n')
    .map(normalizeSpace)
    .filter((block) => wordsOf(block).length > 0);
  return title && blocks[0] === normalizeSpace(title) ? blocks.slice(1) : blocks;
}

/** Why a preview fails to carry text beyond its heading, or undefined when it carries some. */
export function headingOnly(title: string, content: string): string | undefined {
  const rest = blocksBeyondHeading(title, content).join(' ');
  if (wordsOf(rest).length >= MIN_WORDS) return undefined;
  const heading = title ? `heading "${title.slice(0, 60)}"` : 'no title';
  return `${heading}${rest ? ` then only "${rest.slice(0, 60)}"` : ' and nothing else'}`;
}

/** How many of the first block's words must stand, in order, where the link points. */
const QUOTED_WORDS = 6;
/** Where the link points: from a few words before its target to this many after (a page: its `<h1>`). */
const WORDS_BEFORE_TARGET = 30;
const WORDS_AFTER_TARGET = 500;

/** A page's main content as words in reading order, block by block, and where each id starts among them. */
export interface ContentWords {
  words: string[];
  idAt: Map<string, number>;
}

/** The words of `nodes` (headings kept, as a preview may flatten a heading and its text into one paragraph). */
export function contentWords(nodes: AnyNode[]): ContentWords {
  const parts = nodes
    .map((node) => blockText(node, 'keep', 'mark'))
    .join('\n')
    .split(ID_MARK);
  const result: ContentWords = { words: [], idAt: new Map() };
  parts.forEach((part, index) => {
    // split() with a capture group alternates text and the ids between.
    if (index % 2 === 0) result.words.push(...wordsOf(part));
    else if (!result.idAt.has(part)) result.idAt.set(part, result.words.length);
  });
  return result;
}

const containsRun = (words: string[], run: string[]) => ` ${words.join(' ')} `.includes(` ${run.join(' ')} `);

/**
 * Why a preview's text is not what the link points to, or undefined when the first words of its
 * first block stand near the link's target in the page's main content (after the page's `<h1>`
 * for a link to a whole page). A preview of the navigation, or of another part of the page, fails here.
 */
export function notFromTarget(title: string, content: string, page: ContentWords, fragment: string): string | undefined {
  const first = blocksBeyondHeading(title, content)[0] ?? '';
  const quoted = wordsOf(first).slice(0, QUOTED_WORDS);
  // A target outside the main content is looked for in all of it.
  const at = targetAt(page, fragment);
  const near = page.words.slice(Math.max(0, (at ?? 0) - WORDS_BEFORE_TARGET), at === undefined ? undefined : at + WORDS_AFTER_TARGET);
  if (containsRun(near, quoted)) return undefined;
  const where = containsRun(page.words, quoted) ? 'from another part of the page' : "not from the page's main content";
  return `text ${where}: "${first.slice(0, 60)}"`;
}

/**
 * Where the link's target starts among the page's words: a link to a whole page points at its heading
 * (main content may hold navigation before it).
 */
function targetAt(page: ContentWords, fragment: string): number | undefined {
  return fragment ? (page.idAt.get(fragment) ?? page.idAt.get(percentDecoded(fragment))) : (page.idAt.get(PAGE_HEADING) ?? 0);
}

/**
 * Whether a preview's text is what introduces its target: the first words of its first block stand
 * in the page's main content before the target (the class of an undocumented method, the usage line
 * before a command's options), as previews show targets that document nothing.
 */
export function introducesTarget(title: string, content: string, page: ContentWords, fragment: string): boolean {
  const quoted = wordsOf(blocksBeyondHeading(title, content)[0] ?? '').slice(0, QUOTED_WORDS);
  const at = targetAt(page, fragment);
  return quoted.length > 0 && at !== undefined && containsRun(page.words.slice(0, at), quoted);
}

/** What is read of each target page, once per page: its main content's words (found as the extraction finds it), its sections. */
interface TargetPages {
  words: Map<string, Promise<ContentWords>>;
  sections: Map<string, Promise<PageSection[]>>;
}

function once<T>(cache: Map<string, Promise<T>>, file: string, read: () => Promise<T>): Promise<T> {
  let value = cache.get(file);
  if (!value) {
    value = read();
    cache.set(file, value);
  }
  return value;
}

const targetPage = (site: ServedSite, file: string, cache: TargetPages): Promise<ContentWords> =>
  once(cache.words, file, async () => {
    const page = await site.pages.parse(site.version, file);
    const main = page && findMainContent(page);
    return contentWords(main ? [main] : []);
  });

/**
 * Whether what `#fragment` of a page points to documents nothing: its section, as the search index
 * splits the page (`sections`), has no documentation (fewer than four words: an attribute's empty
 * entry); for a whole page, none of its sections has (pandas' `Day.n`: a heading, an empty entry and
 * the theme's previous/next links). A target that is no section of its own is counted.
 */
export function documentsNothing(sections: readonly PageSection[], fragment: string): boolean {
  const targeted = fragment ? sections.filter((section) => section.id === fragment || section.id === percentDecoded(fragment)) : sections;
  return targeted.length > 0 && !targeted.some((section) => hasDocumentation(section.content));
}

const targetSections = (site: ServedSite, file: string, cache: TargetPages): Promise<PageSection[]> =>
  once(cache.sections, file, async () => splitSections((await site.pages.read(site.version, file)) ?? '', file).sections);

async function previewOutcome(site: ServedSite, link: SampledLink, targets: TargetPages): Promise<PreviewOutcome> {
  const params = new URLSearchParams({ url: link.url, ...(site.doctool ? { doctool: site.doctool } : {}), form: 'preview' });
  const response = await proxyGet(`${site.proxyUrl}/api/v3/embed/?${params}`);
  const body = (await response.json()) as Partial<EmbedPreview & ErrorBody>;
  if (!response.ok) return { ...link, failure: 'error', reason: `HTTP ${response.status} ${body.error?.code ?? ''}`.trim() };
  const [title, content] = [body.title ?? '', body.content ?? ''];
  const bare = headingOnly(title, content);
  if (bare && documentsNothing(await targetSections(site, link.target, targets), new URL(link.url).hash.slice(1)))
    return { ...link, failure: undefined, reason: bare, leftOut: true };
  if (bare) return { ...link, failure: 'heading only', reason: bare };
  const [page, fragment] = [await targetPage(site, link.target, targets), new URL(link.url).hash.slice(1)];
  const foreign = notFromTarget(title, content, page, fragment);
  // A target that documents nothing previewed with what introduces it: counted apart, as one previewed as its heading.
  if (
    foreign &&
    introducesTarget(title, content, page, fragment) &&
    documentsNothing(await targetSections(site, link.target, targets), fragment)
  )
    return { ...link, failure: undefined, reason: `what introduces it, ${foreign}`, leftOut: true };
  return { ...link, failure: foreign ? 'text from elsewhere' : undefined, reason: foreign ?? '' };
}

/** Asks the proxy for each link's preview as the widget does, a few at a time. */
export async function checkPreviews(site: ServedSite, links: SampledLink[], concurrency = 4): Promise<PreviewOutcome[]> {
  const outcomes: PreviewOutcome[] = new Array(links.length);
  const targets: TargetPages = { words: new Map(), sections: new Map() };
  let next = 0;
  const worker = async () => {
    while (next < links.length) {
      const index = next++;
      outcomes[index] = await previewOutcome(site, links[index]!, targets).catch((error: unknown) => ({
        ...links[index]!,
        failure: 'error' as const,
        reason: `request failed: ${(error as Error).message}`,
      }));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}
