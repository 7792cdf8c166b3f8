import { isPlain, isPrefix, readQuery } from './query.ts';
import { editDistance } from './edit-distance.ts';
import { VERSION_NUMBER } from '../extraction/words/version-number.ts';
import { termsOf, tokenMatches, tokens, WHOLE } from './terms.ts';
import { escapeRegExp } from './reg-exp.ts';
import { typoEdits } from './weights.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Whether a token of a text is one of the matched terms. */
const isMatched = (token: string, terms: ReadonlySet<string>) => termsOf(token).some((term) => terms.has(term));

/** The names a dotted token is made of: `kombu`, `connection`, `drain_events` of `kombu.connection.drain_events`. */
const SEGMENT = /[\p{L}\p{N}_]+/gu;
/** The words of a name: `drain`, `events` of `drain_events`. */
const PART = /[\p{L}\p{N}]+/gu;

type Span = [start: number, end: number];

/** Where a name (no dots) is marked: whole where the reader named it whole, else the words of it the search matched. */
function markedInName(name: string, at: number, words: ReadonlySet<string>): Span[] {
  if (words.has(WHOLE + name.toLowerCase())) return [[at, at + name.length]];
  const parts = [...name.matchAll(PART)].filter((part) => isMatched(part[0], words));
  return parts.map((part) => [at + part.index!, at + part.index! + part[0].length]);
}

/**
 * Where a matched token is marked: a name made of parts only in what the search matched, so that "drain_events"
 * marks `drain_events` of `kombu.connection.Connection.drain_events`, and "event" `event` of `register_with_event_loop`.
 */
function markedParts(token: string, words: ReadonlySet<string>): Span[] {
  const segments = [...token.matchAll(SEGMENT)];
  if ((segments.length < 2 && !token.includes('_')) || VERSION_NUMBER.test(token)) return [[0, token.length]];
  const lower = token.toLowerCase();
  // The longest dotted tail the reader named whole, the whole name first.
  const named = segments.find((segment) => words.has(WHOLE + lower.slice(segment.index)));
  if (named) return [[named.index!, token.length]];
  return segments.flatMap((segment) => markedInName(segment[0], segment.index!, words));
}

/** HTML-escaped `text` with every matched word wrapped in `<span>`, as the search API returns it. */
export function highlight(text: string, words: ReadonlySet<string>): string {
  let html = '';
  let last = 0;
  for (const match of tokenMatches(text)) {
    if (!isMatched(match[0], words)) continue;
    for (const [start, end] of markedParts(match[0], words)) {
      const from = match.index! + start;
      html += `${escapeHtml(text.slice(last, from))}<span>${escapeHtml(text.slice(from, match.index! + end))}</span>`;
      last = match.index! + end;
    }
  }
  return html + escapeHtml(text.slice(last));
}

/**
 * Where the longest name the reader typed whole (dotted or with underscores) first stands in `text`: a page that says
 * "Jupyter" and "widgets" from its start names `jupyter_sphinx.embed_widgets` further on.
 */
function firstNameAt(text: string, words: ReadonlySet<string>): number | undefined {
  const names = [...words].filter((word) => word.startsWith(WHOLE) && /[._]/.test(word)).map((word) => word.slice(WHOLE.length));
  for (const name of names.sort((a, b) => b.length - a.length)) {
    const at = text.search(new RegExp(escapeRegExp(name), 'i'));
    if (at >= 0) return at;
  }
  return undefined;
}

/**
 * Up to `count` highlighted excerpts of about `width` characters around the matches in `text`: the first its opening
 * where the section's title says all it matched (`opening`), else around the name the reader typed where the text
 * has it, the others around the first matches elsewhere, in the text's order.
 */
export function highlightExcerpts(text: string, words: ReadonlySet<string>, { opening = false, count = 3, width = 160 } = {}): string[] {
  const spans: Span[] = [];
  const around = (at: number): Span => {
    let start = Math.max(0, at - Math.floor(width / 3));
    let end = Math.min(text.length, start + width);
    // Whole words only at the edges.
    if (start > 0) start = text.indexOf(' ', start) + 1 || start;
    if (end < text.length) end = text.lastIndexOf(' ', end) > at ? text.lastIndexOf(' ', end) : end;
    return [start, end];
  };
  const first = opening ? 0 : firstNameAt(text, words);
  if (first !== undefined) spans.push(around(first));
  // Read only as far as the excerpts go: a section's text may be a whole long page.
  for (const match of tokenMatches(text)) {
    if (spans.length === count) break;
    if (!isMatched(match[0], words)) continue;
    // None says what another says already.
    const span = around(match.index!);
    if (!spans.some(([start, end]) => span[0] < end && span[1] > start)) spans.push(span);
  }
  return spans.map(([start, end]) => highlight(text.slice(start, end), words));
}

/** Whether `word` is a spelling of the reader's `own` as near as this engine corrects it. */
const misspells = (own: string, word: string) => isPlain(word) && editDistance(own, word) <= typoEdits(own);

/**
 * Whether `term`, matched by another engine, is one of the reader's `terms`, the end of one being typed, or a spelling
 * of one as near as this engine corrects it.
 */
const isReaders = (term: string, terms: readonly string[]) =>
  terms.some((own) => term === own || (isPrefix(own) && term.startsWith(own)) || misspells(own, term));

/**
 * The words to highlight, as `highlight` takes them, in texts another engine searched (the hosting service) for
 * `query`, from the words it marked in each: the reader's words, and of the marked words' terms only those a word of
 * the reader's is, starts ("conf" of "configuration") or misspells ("retires" of "retries"). Neither stop words nor
 * whole names the reader did not name: marked `kombu.connection.Connection.drain_events` gives `drain_events`
 * for "drain_events". The query is read once, for every text of an answer.
 */
export function readersWords(query: string): (marked: readonly string[]) => Set<string> {
  const reading = readQuery(query);
  const terms = reading?.terms ?? [];
  const typed = [...(reading?.typed.values() ?? [])];
  // A slip may change how the stemmer cuts a word: "authenticaton" (its own stem) misspells "authentication" ("authent").
  const misspelt = (token: string) => typed.some((word) => misspells(word, token.toLowerCase()));
  return (marked) => {
    const words = new Set(terms);
    for (const token of marked.flatMap(tokens)) {
      const spelt = misspelt(token);
      for (const term of termsOf(token)) if (spelt || isReaders(term, terms)) words.add(term);
    }
    return words;
  };
}
