import { LRUCache } from 'lru-cache';
import { stemmer } from 'stemmer';
import { isStopWord, STOP_WORDS } from '../extraction/words/stop-words.ts';
import { VERSION_NUMBER } from '../extraction/words/version-number.ts';

/**
 * How the search index reads text: tokens are words and identifiers (`too_slow`, `Frame.merge`,
 * `5.1`: runs of letters, digits and underscores joined by dots or `::`), and each token becomes the
 * terms the index keeps — a plain word its English stem (so "daemonizing" finds "daemonize"), an
 * identifier itself whole, its dotted tails and its parts stemmed, so that `merge`, `DataFrame.merge`
 * and `pandas.DataFrame.merge` all find `pandas.DataFrame.merge`.
 */
const TOKEN = /[\p{L}\p{N}_]+(?:(?:\.|::)[\p{L}\p{N}_]+)*/gu;

export function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Each token with where it starts in `text`. */
export function tokenMatches(text: string): IterableIterator<RegExpMatchArray> {
  return text.matchAll(TOKEN);
}

/** The stem of an English word in lower case; other words (digits, other scripts) as they are. */
export function stem(word: string): string {
  return /^[a-z]{3,}$/.test(word) ? stemmer(word) : word;
}

const PARTS = /\.|::|_+/;
const SEGMENTS = /\.|::/;

/**
 * Identifiers whole are kept behind this mark, so that a word being typed ("sphinx") is not also the
 * start of every name under it (`sphinx.io.read_doc`), which would count the page once per name.
 */
export const WHOLE = '=';

/**
 * The terms of tokens met lately: a site's vocabulary is small next to its text, which indexing
 * reads once and searches read again (a query's closeness and completions read its hits' text).
 */
const recentTerms = new LRUCache<string, readonly string[]>({ max: 50_000 });

/** The terms the index keeps of one token (none for a stop word). */
export function termsOf(token: string): readonly string[] {
  let terms = recentTerms.get(token);
  if (!terms) {
    terms = computeTerms(token);
    recentTerms.set(token, terms);
  }
  return terms;
}

function computeTerms(token: string): string[] {
  const lower = token.toLowerCase();
  if (!PARTS.test(lower)) return STOP_WORDS.has(lower) ? (KEYWORD.test(token) ? [WHOLE + lower] : []) : [stem(lower)];
  const terms = [WHOLE + lower];
  // A version number is a name whole: "0.2.0" is no release "2.0".
  if (VERSION_NUMBER.test(lower)) return terms;
  const segments = lower.split(SEGMENTS);
  // Dotted tails: `dataframe.merge` of `pandas.dataframe.merge`.
  for (let start = 1; start < segments.length - 1; start++) terms.push(WHOLE + segments.slice(start).join('.'));
  // Compound segments whole: `too_slow` of `healthcheck.too_slow`.
  if (segments.length > 1) for (const segment of segments) if (segment.includes('_')) terms.push(WHOLE + segment);
  for (const part of lower.split(PARTS)) if (part && !STOP_WORDS.has(part)) terms.push(stem(part));
  return [...new Set(terms)];
}

/**
 * A stop word written in capitals is a keyword (SQL's `WHERE` and `IS NULL`, logic's `OR`): a word the index keeps and a
 * query looks for, whole as a name is, so that SQL's `ON` is not the stem of "one".
 */
const KEYWORD = /^[A-Z]{2,}$/;

/** Whether a term is a keyword's (`=where` of `WHERE`): a stop word to a reader who does not write it in capitals. */
export const isKeywordTerm = (term: string) => term.startsWith(WHOLE) && STOP_WORDS.has(term.slice(WHOLE.length));

/**
 * What a query looks for: its tokens without the stop words (all of them if nothing else is left), keywords kept
 * unless the whole query is in capitals (then its capitals say nothing).
 */
export function queryTokens(text: string, limit: number): string[] {
  const all = tokens(text).slice(0, limit);
  const keywords = /\p{Ll}/u.test(text);
  const meaningful = all.filter((token) => !isStopWord(token) || (keywords && KEYWORD.test(token)));
  return meaningful.length ? meaningful : all;
}

/** A query's terms, each once: what the index is searched for. */
export function queryTerms(queryTokens: readonly string[]): string[] {
  const terms = new Set<string>();
  for (const token of queryTokens) {
    const processed = termsOf(token);
    // A stop word searched for on its own (the query has nothing else) is searched as it is.
    for (const term of processed.length ? processed : [token.toLowerCase()]) terms.add(term);
  }
  return [...terms];
}

/**
 * A word in lower case, a plural as its singular (Harman's "S" stemmer: "queries" → "query", "forms"
 * → "form"; "-es" after a hiss: "classes" → "class"): the word as written, less its number.
 */
export function singularOf(word: string): string {
  const lower = word.toLowerCase();
  if (/(?:ss|x|ch|sh|zz)es$/.test(lower)) return lower.slice(0, -2);
  if (/[^ae]ies$/.test(lower)) return `${lower.slice(0, -3)}y`;
  if (/[^aeo]es$/.test(lower)) return lower.slice(0, -1);
  if (/[^us]s$/.test(lower)) return lower.slice(0, -1);
  return lower;
}

/** A word written as code is: capitals past its first letter (`ARIMA`, `DataFrame`), an underscore or a dot. */
export const WRITTEN_AS_CODE = /^.+[A-Z]|[_.]/;
