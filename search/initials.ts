import type { FieldHit, FieldSearch } from './field-search.ts';
import { fieldOf, type IndexedSection } from './fields.ts';
import type { QueryReading } from './query.ts';
import { termsOf, tokens } from './terms.ts';

/**
 * A concept whose page or object is named by its initials alone, and whose text never spells its words out: "data
 * definition language" is SQLAlchemy's "Customizing DDL", "international celestial reference system" Astropy's `ICRS`.
 * The words find it not; their initials are looked up among titles and objects' own names only (never text, where three
 * letters are as often another word: "ten" of "turn an expression into a numpy function"), and only for a query that is
 * those words and nothing else (stop words aside): "solve an ordinary differential equation" asks for a solver, not `ode`.
 */

/** How many words a query named by initials has: two letters name too much, six words are a sentence. */
const MIN_WORDS = 3;
const MAX_WORDS = 5;

/** A query's initials in lower case, where it is nothing but 3 to 5 plain words. */
function initialsOf({ query }: QueryReading): string | undefined {
  if (query.length < MIN_WORDS || query.length > MAX_WORDS || !query.every((token) => /^[a-z]+$/i.test(token))) return undefined;
  return query.map((word) => word[0]!.toLowerCase()).join('');
}

/** The index's term for a query's initials (see `initialsOf`), which the search looks up. */
export function initialsTerm(reading: QueryReading): string | undefined {
  const initials = initialsOf(reading);
  return initials && termsOf(initials)[0];
}

/**
 * The sections titled or named by the query's initials as a word of their own (`DDL`, `ICRS`, a plural `CRLs`), not as
 * part of a longer name (`iers_auto_url`, `get_icrs_coordinates`) nor another word of the same stem ("toste", "tost").
 */
export function namedByInitials(search: FieldSearch, reading: QueryReading, sectionOf: (id: number) => IndexedSection): FieldHit[] {
  const initials = initialsOf(reading);
  const term = initials && termsOf(initials)[0];
  if (!term) return [];
  // The initials, a version after them (`IMAP4`), a plural.
  const word = new RegExp(`^${initials}\\d*s?$`, 'i');
  const says = (text: string) => tokens(text).some((token) => word.test(token));
  return search.searchNames(term).filter(({ id }) => {
    const section = sectionOf(id);
    return says(fieldOf(section, 'title')!) || says(fieldOf(section, 'pageName')!);
  });
}
