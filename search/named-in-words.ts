import { abbreviating } from './abbreviated-names.ts';
import { type IndexedSection, ownName } from './fields.ts';
import { ABBREVIATED_LESS } from './weights.ts';
import type { Found } from './matching.ts';
import { singularOf, termsOf } from './terms.ts';

/**
 * Objects and pages a query names in words: API references and titles name a concept by its initials or by its words
 * glued (`WLS` for "weighted least squares", `kstest` for "kolmogorov smirnov test", `read_hdf` for "read hierarchical
 * data format", `UnobservedComponents`, "How to deploy with WSGI"), readers by its words.
 */

/** The fewest of the query's words a name must say: one word that is a name is rule 1's exact name. */
const MIN_WORDS = 2;

/**
 * The fewest words of a query that a name with words cut short says: "sky coordinates" asks for a guide as often as for
 * `SkyCoord` (a held-out half fell with two).
 */
const MIN_CUT_WORDS = 3;

/** The fewest letters of a name said so: two initials name too much (`ls`, `cf`). */
const MIN_LETTERS = 3;

/**
 * How many consecutive words of `words` (plain, in lower case; '' for another token) a name says, the most of any run;
 * 0 below `MIN_WORDS`. A word is said whole (a plural by its singular too), or two words and more by their initials (`ks`
 * of "kolmogorov smirnov": one initial beside whole words says nothing, `queues` is no "queue service"). The name is said
 * whole, in any case, or by its last parts (`csv` of `to_csv`, `kde` of `gaussian_kde`), half a word less: "world
 * coordinate system" is `WCS` before `BaseLowLevelWCS`. Curried: a query's words are read once for the names of all the
 * sections found.
 */
export function wordsNaming(words: readonly string[]): (name: string) => number {
  const firsts = new Set(words.filter(Boolean).map((word) => word[0]));
  const singulars = words.map(singularOf);
  // A word cut to its first letters, shorter than its singular and its stem ("scale" of "scales" is the word itself, as
  // `timescale` glues it), names only with all the query's words: "confidence interval for a binomial proportion" is no
  // `conf_int`, "config from environment variables" no `from_envvar`.
  const cuts =
    words.length >= MIN_CUT_WORDS && words.every(Boolean)
      ? words.map((word, at) => Math.min(singulars[at]!.length, (termsOf(word)[0] ?? word).length) - 1)
      : undefined;
  return (name) => {
    let most = 0;
    for (const [at, written] of lastParts(name).entries()) {
      const said = written.replaceAll('_', '').toLowerCase();
      if (said.length < MIN_LETTERS || !firsts.has(said[0])) continue;
      // Words joined by underscores (`isolation_level`) are a name spelled in words (`QueryReading.spelled`).
      if (written.split('_').every((part) => words.includes(part.toLowerCase()) || singulars.includes(part.toLowerCase()))) continue;
      // Words glued in lower case are an English compound as often as a name ("timescale", "setup"): a name by initials only.
      const byInitials = !/.[A-Z]/.test(written);
      const sayingFrom = saying(said, words, singulars);
      const allCut = cuts && saying(said, words, singulars, cuts)(0, true) === words.length ? words.length : 0;
      for (let start = 0; start < words.length; start++) {
        if (words[start]![0] !== said[0]) continue;
        const count = Math.max(sayingFrom(start, byInitials), start === 0 ? allCut : 0);
        if (count >= MIN_WORDS) most = Math.max(most, at === 0 ? count : count - 0.5);
      }
    }
    return most;
  };
}

/**
 * How many words from a place in `words` say `name` (see `wordsNaming`; `singulars`: theirs; `cuts`: how many first
 * letters of each may say it), `byInitials`: some of them by their initials or cut short; -1 if they cannot. What each
 * place in the words and in the name leads to is read once: one-letter words ("x y x y…") would otherwise read a long
 * name in exponentially many ways.
 */
function saying(name: string, words: readonly string[], singulars: readonly string[], cuts?: readonly number[]) {
  const known = new Map<number, number>();
  const from = (at: number, letter: number, byInitials: boolean): number => {
    if (letter === name.length) return byInitials ? -1 : 0;
    const key = (at * (name.length + 1) + letter) * 2 + (byInitials ? 1 : 0);
    let best = known.get(key);
    if (best !== undefined) return best;
    best = -1;
    const take = (count: number, next: number, initials: boolean) => {
      const rest = from(at + count, next, byInitials && !initials);
      if (rest >= 0) best = Math.max(best!, count + rest);
    };
    const word = words[at];
    // A token that is no plain word ('') ends a run.
    if (word) {
      if (name.startsWith(word, letter)) take(1, letter + word.length, false);
      const singular = singulars[at]!;
      if (singular !== word && name.startsWith(singular, letter)) take(1, letter + singular.length, false);
      let same = 0;
      while (same < (cuts?.[at] ?? 0) && name[letter + same] === word[same]) same++;
      for (let length = MIN_LETTERS; length <= same; length++) take(1, letter + length, true);
      let initials = 0;
      while (words[at + initials] && name[letter + initials] === words[at + initials]![0]) {
        initials++;
        if (initials >= 2) take(initials, letter + initials, true);
      }
    }
    known.set(key, best);
    return best;
  };
  return (at: number, byInitials: boolean) => from(at, 0, byInitials);
}

/** A name, then each run of its last parts (split at underscores and capitals), as written. */
function lastParts(name: string): string[] {
  if (/^[a-z]+$/.test(name)) return [name];
  const starts = [...name.matchAll(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g)].map((part) => part.index);
  return starts.map((start) => name.slice(start));
}

/**
 * Capitals a title names a concept by (`WSGI` of "How to deploy with WSGI", `SQS` of "Amazon SQS Transport"), less the
 * version that may follow them (`IMAP` of "IMAP4 protocol client", `SHA` of `SHA256`).
 */
const ACRONYM = /\b[A-Z]{3,}(?=\d*s?\b)/g;

/**
 * A title that is a name alone, after a label: a site written in Markdown documents no object, and titles its pages and
 * headings by them ("Class: MockCallHistory", `PoolStats.connected`). A name within a sentence ("Changing a
 * ManyToManyField to use a through model") is no title's subject, nor one before parameters ("fs.readFile(path[,
 * options], callback)"): read so, Node.js' held-out MRR fell (docs/real-docs.md, seventh session, Django and undici).
 */
const TITLE_NAME = /^(?:[A-Za-z ]+:\s*)?([\w$.]+)$/;

/** The parts of the name a title is, glued in CamelCase (see `TITLE_NAME`). */
function titleNames(title: string): string[] {
  const name = TITLE_NAME.exec(title.replaceAll('`', '').trim())?.[1] ?? '';
  return name.split('.').filter((part) => /[a-z][A-Z]/.test(part));
}

/**
 * The sections among `found` that the query names in words (see `wordsNaming`), those that say the most of its words:
 * "empirical cumulative distribution function" is `ECDF`, not the methods named `cdf`. A documented object by its name;
 * another section by an acronym in its title or its page's, or by the CamelCase name its title or its page's is, half a
 * word less than an object so named (the class `WCS` before the sections titled "Slicing of WCS objects").
 */
export function namedInWords<T extends { section: IndexedSection; result: Found }>(found: readonly T[], query: readonly string[]): T[] {
  const words = query.map((token) => (/^[a-z]+$/i.test(token) ? token.toLowerCase() : ''));
  if (words.filter(Boolean).length < MIN_WORDS) return [];
  const naming = wordsNaming(words);
  const abbreviated = abbreviating(words);
  // A name that abbreviates the words in an order of its own says them half a word less than one read in the query's order.
  const namingObject = (name: string) => Math.max(naming(name), abbreviated(name) - ABBREVIATED_LESS);
  // What each name and title says, read once: found sections share their pages' titles and their objects' names.
  const names = new Map<string, number>();
  const titles = new Map<string, number>();
  const saidOnce = (text: string, read: (text: string) => number, said: Map<string, number>) => {
    if (!said.has(text)) said.set(text, read(text));
    return said.get(text)!;
  };
  const inTitle = (title: string) =>
    Math.max(0, ...[...(title.match(ACRONYM) ?? []), ...titleNames(title)].map((name) => naming(name) - 0.5));
  const saidBy = ({ section }: T) =>
    section.apiName
      ? section.documented
        ? saidOnce(section.apiName, (apiName) => namingObject(ownName(apiName)), names)
        : 0
      : Math.max(saidOnce(section.title, inTitle, titles), saidOnce(section.pageName, inTitle, titles));
  // A section only the query's initials found (`initials.ts`) is lifted beside those the words find, not instead of them.
  const mostOf = (entries: readonly T[]) => entries.reduce((best, entry) => Math.max(best, saidBy(entry)), 0);
  const most = mostOf(found.filter((entry) => entry.result.queryTerms.length)) || mostOf(found);
  return most ? found.filter((entry) => saidBy(entry) >= most) : [];
}
