import { LIKELY_EDIT } from './weights.ts';

/**
 * Edits from one word to another: letters inserted, deleted, replaced, or two neighbours swapped
 * ("retires" for "retries" is one edit), the optimal string alignment form of Damerau's distance.
 */
export function editDistance(a: string, b: string): number {
  let beforeLast: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, beforeLast[j - 2]! + 1);
    }
    beforeLast = last;
    last = row;
  }
  return last[b.length]!;
}

const VOWEL = /[aeiou]/;

/**
 * The edits from a word typed to a word meant (`distance`, Damerau's count), weighed by how readers mistype:
 * `LIKELY_EDIT` each where the edits readers make most reach it, a doubled letter typed once or a letter typed twice
 * ("maping", "scalling"), two neighbours swapped ("tabel"), a vowel for another ("catagories"); else one each. Which
 * spelling a typo stands for, among those as many edits away and as common.
 */
export function typoCost(typed: string, meant: string, distance = editDistance(typed, meant)): number {
  return distance * (unlikelyEdits(typed, meant) === 0 ? LIKELY_EDIT : 1);
}

/** The fewest edits from `typed` to `meant` that are none of those readers make most (see `typoCost`), as in `editDistance`. */
function unlikelyEdits(typed: string, meant: string): number {
  // The second of a pair: one of its letters added or left out is a slip, both of them are a letter more or less too.
  const doubled = (word: string, at: number) => (word[at] === word[at - 1] ? 0 : 1);
  let beforeLast: number[] = [];
  let last = [0];
  for (let j = 1; j <= meant.length; j++) last[j] = last[j - 1]! + doubled(meant, j - 1);
  for (let i = 1; i <= typed.length; i++) {
    const row = [last[0]! + doubled(typed, i - 1)];
    for (let j = 1; j <= meant.length; j++) {
      const vowels = VOWEL.test(typed[i - 1]!) && VOWEL.test(meant[j - 1]!);
      const replaced = typed[i - 1] === meant[j - 1] || vowels ? 0 : 1;
      row[j] = Math.min(last[j]! + doubled(typed, i - 1), row[j - 1]! + doubled(meant, j - 1), last[j - 1]! + replaced);
      if (i > 1 && j > 1 && typed[i - 1] === meant[j - 2] && typed[i - 2] === meant[j - 1]) row[j] = Math.min(row[j]!, beforeLast[j - 2]!);
    }
    beforeLast = last;
    last = row;
  }
  return last[meant.length]!;
}
