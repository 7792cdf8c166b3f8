import type { SearchIndex } from '../../search/index.ts';

/** Page titles typed with a slip, per site: enough to tell a share, few enough to read the misses. */
export const TYPOS_PER_SITE = 40;

const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** The key beside a letter on its row of a QWERTY keyboard (the one before it at a row's end). */
function besideKey(letter: string): string {
  const row = KEYBOARD_ROWS.find((keys) => keys.includes(letter));
  if (!row) return letter;
  const at = row.indexOf(letter);
  return row[at + 1 < row.length ? at + 1 : at - 1]!;
}

/** The slips readers make most, at a letter of a word that has one after it: dropped, swapped, typed twice, the key beside. */
const SLIPS: ((word: string, at: number) => string)[] = [
  (word, at) => word.slice(0, at) + word.slice(at + 1),
  (word, at) => word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2),
  (word, at) => word.slice(0, at) + word[at] + word.slice(at),
  (word, at) => word.slice(0, at) + besideKey(word[at]!) + word.slice(at + 1),
];

export interface TitleTypo {
  /** The title as a reader would search it: its words, or an object's own name (`read_csv`). */
  query: string;
  typo: string;
  path: string;
}

/**
 * The `n`th slip of a query: in its longest word (an object name's longest part), never at the first letter (readers
 * seldom slip there) nor the last (a dropped last letter reads as a word being typed).
 */
export function slipped(query: string, n: number): string {
  const separator = query.includes(' ') || !query.includes('_') ? ' ' : '_';
  const words = query.split(separator);
  const longest = words.reduce((best, word) => (word.length > best.length ? word : best));
  // Knuth's multiplicative hash spreads the places over any length of word.
  const at = 1 + ((Math.imul(n + 1, 2654435761) >>> 0) % (longest.length - 2));
  const typo = SLIPS[n % SLIPS.length]!(longest, at);
  return words.map((word) => (word === longest ? typo : word)).join(separator);
}

/**
 * Queries for a site's pages made from their titles, each with one slip (see `slipped`), spread evenly over the titles
 * in order: titles of one to three plain words with one of six letters or more, and objects' own names with such a part.
 */
export function titleTypos(titles: ReadonlyMap<string, string>, count: number): TitleTypo[] {
  const queries: { query: string; path: string }[] = [];
  const seen = new Set<string>();
  for (const [path, title] of [...titles].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const name = /^[\w.]+$/.test(title) && /[._]/.test(title) ? title.split('.').at(-1)! : undefined;
    const query = name ?? title.toLowerCase();
    const words = query.split(name ? '_' : ' ');
    const fits = name ? /^[a-z_]+$/i.test(name) : /^[a-z]+( [a-z]+){0,2}$/.test(query);
    if (!fits || !words.some((word) => word.length >= 6) || seen.has(query)) continue;
    seen.add(query);
    queries.push({ query, path });
  }
  const step = Math.max(1, queries.length / count);
  const chosen: TitleTypo[] = [];
  for (let at = 0; at < queries.length && chosen.length < count; at += step) {
    const { query, path } = queries[Math.floor(at)]!;
    // A slip of a letter beside its double changes nothing ("spreadsheets"): the next slip then.
    const typo = [0, 1, 2, 3].map((next) => slipped(query, chosen.length + next)).find((slip) => slip !== query);
    if (typo) chosen.push({ query, typo, path });
  }
  return chosen;
}

export interface TypoFigures {
  /** Typos whose title finds its page in the top 3 typed right: those measured. */
  of: number;
  /** Of those, the typos that still find it in the top 3. */
  found: number;
  missed: TitleTypo[];
}

/** How many of a site's title typos still find their page in the top 3, of those whose title finds it typed right. */
export function typoFigures(index: SearchIndex, count = TYPOS_PER_SITE): TypoFigures {
  const inTop3 = (query: string, path: string) =>
    index
      .search(query)
      .slice(0, 3)
      .some((hit) => hit.path === path);
  const measured = titleTypos(index.pageTitles(), count).filter(({ query, path }) => inTop3(query, path));
  const missed = measured.filter(({ typo, path }) => !inTop3(typo, path));
  return { of: measured.length, found: measured.length - missed.length, missed };
}
