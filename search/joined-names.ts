import type SearchableMap from 'minisearch/SearchableMap';
import { holdsWordStarting } from './terms-index.ts';
import { termsOf, WHOLE } from './terms.ts';

/** What separates the parts of a name as the index keeps it (`read_csv`, `fs.readfilesync`; `::` is rare in a reader's query). */
const SEPARATORS = ['_', '.'];

/** The most separators a word typed without them is read with (`get_object_or_404` has three). */
const MAX_SEPARATORS = 4;

/** The most prefixes the walk reads for one word: a word the reader chooses costs no more than this. */
const MAX_PREFIXES_READ = 1_000;

/** The shortest word read as a name typed without its separators: shorter ones are words or initials. */
const MIN_JOINED = 5;

/** A word in lower case that may be a name typed without its separators. */
const mayJoinName = (word: string) => word.length >= MIN_JOINED && /^[a-z\d]+$/.test(word);

/**
 * Where the names a word typed without separators may stand for start: the name's first part, two letters or more, then a
 * separator (`=to_`, `=tod_`…). Every such name is under one of them: static mode fetches their terms parts first.
 */
export function joinedNamePrefixes(word: string): string[] {
  if (!mayJoinName(word)) return [];
  const prefixes: string[] = [];
  for (let at = 2; at < word.length; at++) for (const separator of SEPARATORS) prefixes.push(WHOLE + word.slice(0, at) + separator);
  return prefixes;
}

/**
 * The names the site keeps whose parts, joined, are a word typed without their separators ("todatetime" for
 * `to_datetime`, "getobjector404" for `get_object_or_404`), as terms. Found by walking the vocabulary part by part:
 * a part is taken only where some name goes on with a separator after it, so the walk reads a few prefixes per letter
 * (at most `MAX_PREFIXES_READ`), each ending with a separator: under one of `joinedNamePrefixes`, as static mode has them.
 * `visit` is told each prefix read (an index loaded in parts needs their terms parts).
 */
export function namesJoinedAs(words: SearchableMap<unknown>, word: string, visit: (prefix: string) => void): string[] {
  if (!mayJoinName(word)) return [];
  const names: string[] = [];
  let read = 0;
  const starts = (prefix: string) => {
    if (++read > MAX_PREFIXES_READ) return false;
    visit(prefix);
    return holdsWordStarting(words, prefix);
  };
  const walk = (name: string, rest: string, separators: number) => {
    for (let length = name === WHOLE ? 2 : 1; length <= rest.length; length++) {
      const part = name + rest.slice(0, length);
      if (length === rest.length) {
        if (separators > 0 && words.has(part)) names.push(part);
      } else if (separators < MAX_SEPARATORS)
        for (const separator of SEPARATORS) if (starts(part + separator)) walk(part + separator, rest.slice(length), separators + 1);
    }
  };
  walk(WHOLE, word, 0);
  return names;
}

/** What reading a word as a joined name asks of the index (`FieldSearch`). */
interface NameVocabulary {
  keepsTermStarting(prefix: string): boolean;
  namesJoinedAs(word: string): string[];
  sectionsWith(term: string): number;
}

/**
 * Whether a token may be a name typed without its separators: a word in lower case that the site lacks, whole and as
 * the start of longer ones. Only such a word's names are looked up (static mode fetches where they start for it alone).
 */
export function mayBeJoinedName(search: NameVocabulary, token: string): boolean {
  if (!mayJoinName(token)) return false;
  const [term] = termsOf(token);
  return term !== undefined && !search.keepsTermStarting(term);
}

/**
 * The name the site keeps whose parts, joined, are a word in lower case that it lacks ("todatetime" for `to_datetime`,
 * "getobjector404" for `get_object_or_404`), the one in the most sections where several are: read as the name, exact
 * names' tier included. None for a word the site has, whole or as the start of longer ones.
 */
export function nameTypedJoined(search: NameVocabulary, token: string): string | undefined {
  if (!mayBeJoinedName(search, token)) return undefined;
  const names = search.namesJoinedAs(token).map((name) => ({ name, sections: search.sectionsWith(name) }));
  const best = names.sort((a, b) => b.sections - a.sections)[0];
  return best?.name.slice(WHOLE.length);
}
