import { queryTerms, queryTokens, stem, tokenMatches, WHOLE } from './terms.ts';

/** Longer queries are cut to this many words: past it, relevance stops improving. */
export const MAX_QUERY_WORDS = 24;

/** What a query asks for, as the matching and the ranking read it. */
export interface QueryReading {
  /** Its words (stop words aside). */
  query: string[];
  /** Their terms, each once. */
  terms: string[];
  /** Names the query spells in words that are not among its terms (see `spelledNames`). */
  spelled: string[];
  /** Plain words as typed, by their stems: a word cut short is completed from its letters, not from its stem. */
  typed: Map<string, string>;
  /** The terms of its last word, which the reader may still be typing: words before it are whole. */
  beingTyped: Set<string>;
  /** The term of its last word when it may be the start of a longer one. */
  typing: string | undefined;
  /** Whether it asks what a term is ("what is…"). */
  asksForDefinition: boolean;
  /** Whether it is a question ("how do I…", "is it thread safe"). */
  asksQuestion: boolean;
}

/** A query put as a question. */
const QUESTION = /^\s*(?:how|what|why|when|where|which|who|can|could|should|is|are|does|do|will)\b/i;

/** A question that asks what a term means. */
const DEFINITION_QUESTION = /^\s*(?:what\s+(?:is|are)\b|what['’]s\b|define\b|definition\s+of\b|meaning\s+of\b)/i;

/** How a query is read; undefined for a query with no words. */
export function readQuery(text: string): QueryReading | undefined {
  const query = queryTokens(text, MAX_QUERY_WORDS);
  if (query.length === 0) return undefined;
  const terms = queryTerms(query);
  const typed = new Map(query.filter((token) => /^[a-z]+$/i.test(token)).map((token) => [stem(token.toLowerCase()), token.toLowerCase()]));
  const beingTyped = new Set(queryTerms(query.slice(-1)));
  return {
    query,
    terms,
    spelled: spelledNames(text).filter((name) => !terms.includes(name)),
    typed,
    beingTyped,
    typing: [...beingTyped].find((term) => isPrefix(term) && isPlain(term)),
    asksForDefinition: DEFINITION_QUESTION.test(text),
    asksQuestion: QUESTION.test(text),
  };
}

/**
 * Every word or name may be the start of a longer one (the reader is still typing it: "url_fo"), a word of letters then
 * digits too ("interp1" of `interp1d`, "log1" of `log1p`); not a number.
 */
export const isPrefix = (term: string) =>
  term.startsWith(WHOLE) ? term.length > WHOLE.length + 3 : term.length >= 3 && /^[a-z][a-z0-9]*$/.test(term);

/** A stemmed word, not an identifier whole. */
export const isPlain = (term: string) => !/[._:]/.test(term);

/** Words a name spelled out in a query runs to at most ("pixel to world"). */
const MAX_SPELLED_WORDS = 4;

/**
 * Names a query spells in words, as the index keeps them: neighbouring words joined by underscores
 * ("pixel to world" for `pixel_to_world`, stop words included), and two to four words written as one ("t-test"
 * for `ttest_ind`, "data frame" for `DataFrame`, "zero inflated poisson" for `ZeroInflatedPoisson`, which
 * `ZeroInflatedGeneralizedPoisson` also says in words). The ones the site has are searched besides the words.
 */
function spelledNames(text: string): string[] {
  const matches = [...tokenMatches(text)].slice(0, MAX_QUERY_WORDS);
  const words = matches.map((match) => match[0].toLowerCase());
  // Words joined by a hyphen are one word ("sub-commands"), not a name of several.
  const hyphened = matches.map(
    (match, index) => index > 0 && text.slice(matches[index - 1]!.index! + matches[index - 1]![0].length, match.index) === '-',
  );
  const names = new Set<string>();
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 2; end <= Math.min(words.length, start + MAX_SPELLED_WORDS); end++) {
      const run = words.slice(start, end);
      if (!run.every((word) => /^[a-z\d]+$/.test(word))) break;
      if (!hyphened.slice(start + 1, end).some(Boolean)) names.add(WHOLE + run.join('_'));
      names.add(stem(run.join('')));
    }
  }
  return [...names];
}

/**
 * How other regions spell a word: British and American endings (-our/-or, -ise/-ize and their
 * forms, -yse/-yze, -tre/-ter, -ogue/-og, -ence/-ense, a doubled l before -ed and -ing). A spelling
 * the site lacks finds nothing: only real words of the site count.
 */
export function regionalSpellings(word: string): string[] {
  if (word.length < 5) return [];
  const spellings = new Set<string>();
  for (const [pattern, replacement] of REGIONAL) {
    const other = word.replace(pattern, replacement);
    if (other !== word) spellings.add(other);
  }
  return [...spellings];
}

const REGIONAL: [RegExp, string][] = [
  [/our(s|ed|ing|able|ite|ites)?$/, 'or$1'],
  [/([^o])or(s|ed|ing|able|ite|ites)?$/, '$1our$2'],
  [/is(e|es|ed|ing|ation|ations|er|ers)$/, 'iz$1'],
  [/iz(e|es|ed|ing|ation|ations|er|ers)$/, 'is$1'],
  [/ys(e|es|ed|ing)$/, 'yz$1'],
  [/yz(e|es|ed|ing)$/, 'ys$1'],
  [/tre(s)?$/, 'ter$1'],
  [/ter(s)?$/, 'tre$1'],
  [/ogue(s)?$/, 'og$1'],
  [/og(s)?$/, 'ogue$1'],
  [/ence(s)?$/, 'ense$1'],
  [/ense(s)?$/, 'ence$1'],
  [/([aeiou])ll(ed|ing|er|ers)$/, '$1l$2'],
  [/([aeiou])l(ed|ing|er|ers)$/, '$1ll$2'],
];
