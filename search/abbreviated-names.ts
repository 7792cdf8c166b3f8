import { singularOf, termsOf } from './terms.ts';

/**
 * Names cut and glued from the words of their concept in an order of their own: scientific and standard-library APIs
 * name "forward fill" `ffill`, "matrix exponential" `expm`, "one sample t test" `ttest_1samp`, "power of a one way anova
 * F test" `FTestAnovaPower`. `named-in-words.ts` reads runs of the query's words in its order; this reads a name whose
 * every part is said by the start of a distinct word of the query, in any order.
 */

/** The fewest of the query's words a name must say: a name of one word cut short is a stem or a prefix. */
const MIN_WORDS = 2;

/**
 * A name of fewer letters is an English word or another's initials as often (`ref`, `set`, `dct`); one word at most is
 * said by its first letter alone (`f` of "forward" in `ffill`): two say almost any short name.
 */
const MIN_LETTERS = 4;

/** The fewest letters of a word cut short, but for one letter: two say too much (`re` and `f` of "read fits" is `ref`). */
const MIN_CUT = 3;

/**
 * Bounds on the lookup, which reads each place of the name once per set of words used: at most 2^10 sets and 64
 * letters, whatever the query or the index holds.
 */
const MAX_WORDS = 10;
const MAX_NAME = 64;

/** Number words a name writes as a digit (`1samp`, `fft2`, `interp1d`). */
const DIGITS = new Map(['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'].map((word, at) => [word, `${at}`]));

/** A name's parts as written (split at underscores, capitals and digits), in lower case; undefined for another name. */
function partsOf(name: string): string[] | undefined {
  if (name.length > MAX_NAME || !/^[A-Za-z0-9_]+$/.test(name)) return undefined;
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+(?:[A-Za-z](?![a-z]))?/g) ?? []).map((part) => part.toLowerCase());
}

/**
 * How many of `words` (plain, in lower case; '' for another token) a name abbreviates: each of its parts is said whole
 * by pieces, each the start of a word not said yet (a digit: a number word), or the initials of consecutive words (`gls`
 * of GLSAR). 0 where it says fewer than `MIN_WORDS`, where it has one piece only (rule 1's name, or a stem), or where it
 * is words joined by underscores (a name spelled in words: the matching reads it). Curried: the words are read once for
 * the names of all the sections found.
 */
export function abbreviating(words: readonly string[]): (name: string) => number {
  const plain = words.filter(Boolean);
  if (plain.length < MIN_WORDS || plain.length > MAX_WORDS) return () => 0;
  // What a part may start with: most names found start no part so, and are read no further.
  const starts = new Set(plain.flatMap((word) => [word[0], DIGITS.get(word)?.[0] ?? '']));
  return (name) => {
    if (!starts.has(/[A-Za-z0-9]/.exec(name)?.[0].toLowerCase() ?? '')) return 0;
    const parts = partsOf(name);
    if (!parts || parts.join('').length < MIN_LETTERS || !parts.every((part) => starts.has(part[0]))) return 0;
    if (name.includes('_') && parts.every((part) => plain.includes(part))) return 0;
    // A word's own form (`Queues` of "queue service") is that word, not its cut.
    const stem = termsOf(name)[0];
    if (plain.some((word) => word === singularOf(name) || (stem && termsOf(word)[0] === stem))) return 0;
    return said(parts, words);
  };
}

/** What the pieces read hold: a word cut to its first letter; a letter (that, a word of one, initials, a digit); a whole word. */
const CUT = 1;
const SHORT = 2;
const WHOLE = 4;

/**
 * The most words of `words` that say all of `parts` in pieces (see `abbreviating`), 0 if they cannot. A piece must be a
 * letter of its word (`ffill`, `ks_2samp`, the `F` of `FTestAnovaPower`): words whole and cut to three letters and more,
 * in any order, are English compounds as often (`Profile` of "file transfer protocol", `resid_deviance` of the deviance
 * residuals of another class), and in the query's order what `named-in-words.ts` reads (or chose not to: `SkyCoord`).
 * The pieces must say a word whole or three words and more: a cut and a letter say English words (`prob` of "proportion
 * binomial", `nobs` of "new observations"). A letter cut from a word starts its part or follows a digit (`1d` of "one
 * dimensional"), glued to another piece: a letter alone (`t_test`) is a letter, and one last is as often a plural or a
 * word's end (`startfile` of "start", "file" cut short and "every").
 */
function said(parts: readonly string[], words: readonly string[]): number {
  const known = new Map<string, number>();
  const from = (part: number, letter: number, used: number, flags: number, pieces: number): number => {
    if (part === parts.length) return pieces > 1 && flags & SHORT && (flags & WHOLE || count(used) > MIN_WORDS) ? count(used) : -1;
    const written = parts[part]!;
    if (letter === written.length) return from(part + 1, 0, used, flags, pieces);
    const key = `${part} ${letter} ${used} ${flags} ${Math.min(pieces, 2)}`;
    let best = known.get(key);
    if (best !== undefined) return best;
    best = -1;
    const take = (next: number, said: number, read: number) => {
      best = Math.max(best!, from(part, next, used | said, flags | read, pieces + 1));
    };
    for (const [at, word] of words.entries()) {
      if (!word || used & (1 << at)) continue;
      const digit = DIGITS.get(word);
      if (digit && written.startsWith(digit, letter)) take(letter + digit.length, 1 << at, SHORT);
      let same = 0;
      while (same < word.length && written[letter + same] === word[same]) same++;
      for (let length = 1; length <= same; length++) {
        const cut = length === 1 && word.length > 1;
        const whole = length === word.length ? WHOLE | (length === 1 ? SHORT : 0) : 0;
        if (cut) {
          if (!(flags & CUT) && (letter === 0 || /\d/.test(written[letter - 1]!)) && written.length > 1)
            take(letter + 1, 1 << at, CUT | SHORT);
        } else if (whole || length >= MIN_CUT) take(letter + length, 1 << at, whole);
      }
      // The initials of two consecutive words and more, none said yet.
      let run = 1 << at;
      for (
        let next = at + 1;
        same && words[next] && !((used | run) & (1 << next)) && written[letter + next - at] === words[next]![0];
        next++
      ) {
        run |= 1 << next;
        take(letter + next - at + 1, run, SHORT);
      }
    }
    known.set(key, best);
    return best;
  };
  const most = from(0, 0, 0, 0, 0);
  return most >= MIN_WORDS ? most : 0;
}

function count(used: number): number {
  let words = 0;
  for (let rest = used; rest; rest &= rest - 1) words++;
  return words;
}
