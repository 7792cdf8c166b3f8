import type { FieldHit, FieldSearch } from './field-search.ts';
import { fieldOf, type IndexedSection } from './fields.ts';
import type { QueryReading } from './query.ts';
import { termsOf, tokens } from './terms.ts';

/**
 * A concept whose page or object is named by its initials alone, and whose text never spells its words out: "data
 * definition language" is SQLAlchemy's "Customizing DDL", "international celestial reference system" Astropy's `ICRS`.
 * The words find it not; their initials are looked up among titles and objects' own names only (never text, where three
 * letters are as often another word: "ten" of "turn an expression into a numpy function"). The initials of a query that
 * is those words and nothing else (stop words aside) are read so; those of a run of its words beside others only where the
 * site spells the initials out in those words somewhere ("The Brock Dechert Scheinkman (BDS) test" in release notes makes
 * "brock dechert scheinkman test" ask for `bds`): "solve an ordinary differential equation" asks for a solver, not `ode`.
 */

/** How many words a query named by initials has: two letters name too much, six words are a sentence. */
const MIN_WORDS = 3;
const MAX_WORDS = 5;

/** Consecutive words of a query and their initials' term. */
export interface InitialsRun {
  /** The initials, in lower case. */
  initials: string;
  /** The term they are kept as. */
  term: string;
  /** The terms of the words. */
  terms: string[];
  /** Whether the words are the whole query. */
  whole: boolean;
}

/** The runs of 3 to 5 plain words of a query (stop words aside), the whole query first where it is one. */
export function initialsRuns({ query }: QueryReading): InitialsRun[] {
  const runs: InitialsRun[] = [];
  for (let length = Math.min(MAX_WORDS, query.length); length >= MIN_WORDS; length--)
    for (let start = 0; start + length <= query.length; start++) {
      const words = query.slice(start, start + length);
      if (!words.every((token) => /^[a-z]+$/i.test(token))) continue;
      const initials = words.map((word) => word[0]!.toLowerCase()).join('');
      const term = termsOf(initials)[0];
      const terms = words.flatMap((word) => termsOf(word).slice(0, 1));
      if (term && terms.length === length) runs.push({ initials, term, terms, whole: length === query.length });
    }
  return runs;
}

/**
 * Sections in which a site that names a concept by its initials still spells its words out, at most: a definition, a
 * release note. Words the site writes in more find their pages themselves ("ordinary differential equation" is in 14
 * sections of SciPy's, which asks for its tutorial, not for the class `ode`).
 */
const SPELLED_OUT_AT_MOST = 2;

/**
 * Whether the site spells a run's initials out: it writes the run's words together in a few sections only
 * (`SPELLED_OUT_AT_MOST`), and one of them says the initials too. Exact terms, each a lookup the query's words make
 * anyway but the initials'.
 */
function spelledOut(search: FieldSearch, run: InitialsRun): boolean {
  let ids: Set<number> | undefined;
  for (const term of run.terms) {
    const holding = search.search(term, false).map(({ id }) => id);
    ids = new Set(ids ? holding.filter((id) => ids!.has(id)) : holding);
    if (!ids.size) return false;
  }
  return ids!.size <= SPELLED_OUT_AT_MOST && search.search(run.term, false).some(({ id }) => ids!.has(id));
}

/** A section named by the initials of a run of the query's words. */
export interface NamedByInitials extends FieldHit {
  run: InitialsRun;
}

/**
 * The sections titled or named by the initials of the query or of a run of its words (see above) as a word of their own
 * (`DDL`, `ICRS`, a plural `CRLs`), not as part of a longer name (`iers_auto_url`, `get_icrs_coordinates`) nor another
 * word of the same stem ("toste", "tost").
 */
export function namedByInitials(search: FieldSearch, reading: QueryReading, sectionOf: (id: number) => IndexedSection): NamedByInitials[] {
  const found: NamedByInitials[] = [];
  const seen = new Set<number>();
  for (const run of initialsRuns(reading)) {
    if (!run.whole && !spelledOut(search, run)) continue;
    // The initials, a version after them (`IMAP4`), a plural.
    const word = new RegExp(`^${run.initials}\\d*s?$`, 'i');
    const says = (text: string) => tokens(text).some((token) => word.test(token));
    for (const hit of search.searchNames(run.term)) {
      const section = sectionOf(hit.id);
      if (seen.has(hit.id) || !(says(fieldOf(section, 'title')!) || says(fieldOf(section, 'pageName')!))) continue;
      seen.add(hit.id);
      found.push({ ...hit, run });
    }
  }
  return found;
}
