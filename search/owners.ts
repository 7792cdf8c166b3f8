import { type IndexedSection, isMember, ownerOf, ownName } from './fields.ts';
import { CENTRAL_NAMESAKE_LEAD } from './weights.ts';
import { termsOf, WRITTEN_AS_CODE } from './terms.ts';

/**
 * Members a query names beside their owner: API readers type a class and what they want of it ("deviance residuals of
 * GLMResults", "write an Array to zarr", "compare_f_test of two regression results"), and among namesakes on many
 * classes (`resid_deviance` of every results class) and the owner's own page, which lists its members, the member of
 * the class named answers. Where the query names no class, the class the site is about does (`centralNamesakesFirst`).
 */

/** Consecutive plain words a query may glue into an owner's name ("regression results" for `RegressionResults`). */
const MAX_GLUED_WORDS = 3;

/**
 * The documented sections among `found` that are members of an object the query names, whose own name says another of
 * the query's words. An owner is named by a token as written (`GLMResults`, `Session`), or, when its name is written as
 * code, by a token in lower case ("dataframe") or by consecutive plain words glued ("regression results"); its member
 * by a term of its own name (`resid_deviance` by "deviance") that a token other than the owner's holds. None for a query
 * of one token.
 */
export function membersOfNamedOwners<T extends { section: IndexedSection }>(found: readonly T[], query: readonly string[]): T[] {
  if (query.length < 2) return [];
  const naming = ownerNaming(query);
  const owned = new Map<string, boolean>();
  return found.filter(({ section }) => {
    if (!section.apiName || !section.documented) return false;
    let named = owned.get(section.apiName);
    if (named === undefined) {
      named = namesMember(section.apiName, naming, query);
      owned.set(section.apiName, named);
    }
    return named;
  });
}

/** For each way the query names an owner (a name as matched: see `ownerKey`), the places of the tokens that say it. */
function ownerNaming(query: readonly string[]): Map<string, number[]> {
  const naming = new Map<string, number[]>();
  for (const [at, token] of query.entries()) {
    // A dotted name is rule 1's exact name, not an owner beside a member.
    if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(token)) naming.set(ownerKey(token), [at]);
    for (let end = at + 2; end <= Math.min(query.length, at + MAX_GLUED_WORDS); end++) {
      const words = query.slice(at, end);
      const places = words.map((_, index) => at + index);
      if (words.every((word) => /^[a-z]+$/.test(word))) naming.set(words.join(''), places);
    }
  }
  return naming;
}

/** How an owner's name is matched: as written when typed with capitals, in lower case otherwise (`=` marks the first). */
const ownerKey = (token: string) => (/[A-Z]/.test(token) ? `=${token}` : token.toLowerCase());

/** Whether a full name's owner is among `naming` and its own name is said by another token of the query. */
function namesMember(apiName: string, naming: ReadonlyMap<string, number[]>, query: readonly string[]): boolean {
  const parts = apiName.split(/\.|::/);
  if (parts.length < 2) return false;
  const owner = parts.at(-2)!;
  // A word in lower case names a module or a concept as often as a class ("session", "task", "units"): only a name
  // written as code (`DataFrame`, `gaussian_kde`) is read in any case.
  const places = naming.get(`=${owner}`) ?? (WRITTEN_AS_CODE.test(owner) ? naming.get(owner.toLowerCase()) : undefined);
  if (!places) return false;
  const own = new Set(termsOf(parts.at(-1)!));
  return query.some((token, at) => !places.includes(at) && termsOf(token).some((term) => own.has(term)));
}

/**
 * Among namesakes a query names in words (the method `ffill` of "forward fill missing values" on `DataFrame`, `GroupBy`
 * and `Resampler`), the one on the object the site mentions most answers first, as it does for a name typed exactly
 * (rule 1 of `ranking.ts`): the others' text may say the query's words more ("Forward fill the values" of
 * `GroupBy.ffill`) without being what a reader of the site means. Not where the query may name one of their classes.
 */
export function centralNamesakesFirst<T extends { section: IndexedSection; base: number }>(
  named: readonly T[],
  query: readonly string[],
  mentions: (name: string) => number,
): void {
  // Any class the query may name, in any case.
  const said = new Set([...ownerNaming(query).keys()].map((key) => key.replace(/^=/, '').toLowerCase()));
  const byName = new Map<string, T[]>();
  for (const entry of named) {
    // Members of classes: a function of a module is no namesake of a method (`ttest_ind` and `CompareMeans.ttest_ind`).
    if (!entry.section.apiName || !isMember(entry.section.role)) continue;
    const name = ownName(entry.section.apiName);
    const namesakes = byName.get(name);
    if (namesakes) namesakes.push(entry);
    else byName.set(name, [entry]);
  }
  for (const namesakes of byName.values()) {
    const owners = new Set(namesakes.map((entry) => ownerOf(entry.section.apiName!)));
    // The class the query names answers ("groupby forward fill", "resampler backward fill"), not the central one.
    if (owners.size < 2 || [...owners].some((owner) => said.has(owner.split('.').at(-1)!))) continue;
    const counted = namesakes.map((entry) => ({ entry, mentions: mentions(ownerOf(entry.section.apiName!).split('.').at(-1) ?? '') }));
    const central = counted.reduce((most, next) => (next.mentions > most.mentions ? next : most));
    const best = Math.max(...namesakes.map((entry) => entry.base));
    if (central.mentions > 0) central.entry.base = Math.max(central.entry.base, best * CENTRAL_NAMESAKE_LEAD);
  }
}
