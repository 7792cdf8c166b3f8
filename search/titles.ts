/** Which titles say a query: the words of rule 1 of `ranking.ts`. */
import { fieldOf, type IndexedSection } from './fields.ts';
import { isKeywordTerm, singularOf, stem, termsOf, tokens } from './terms.ts';

/** The number a numbered heading starts with (`5.1.3. List Comprehensions`, `8. Errors`): its place in the book, not a version. */
export const SECTION_NUMBER = /^\s*\d+(?:\.\d+)*\.\s+(?=\S)/;

/**
 * Whether a title's terms (words by their stems, names whole, stop words aside) are the query's: "where clause" is
 * said by "The WHERE clause", whose keyword the reader wrote as a stop word.
 */
export function sameWords(title: string, wanted: ReadonlySet<string>): boolean {
  const stems = new Set([...titleTerms(title)].filter((term) => wanted.has(term) || !isKeywordTerm(term)));
  return stems.size === wanted.size && holdsAll(stems, wanted);
}

/** A title's terms: words by their stems, names whole, stop words and a section's number aside. */
export const titleTerms = (title: string) => new Set(tokens(title.replace(SECTION_NUMBER, '')).flatMap(termsOf));

export const holdsAll = (terms: ReadonlySet<string>, wanted: ReadonlySet<string>) => [...wanted].every((term) => terms.has(term));

/**
 * The name a query's words run together into (`qqplot` of "qq plot", `zeroinflatedpoisson` of "zero inflated poisson"),
 * as the index keeps a name of one word; none for a query of one word or one that holds names.
 */
export function gluedName(query: readonly string[]): string | undefined {
  return query.length > 1 && query.every((token) => /^[a-z\d]+$/i.test(token)) ? stem(query.join('').toLowerCase()) : undefined;
}

/**
 * Whether a documented object's own name is the name a query's words run together into: the query is its title in
 * words ("qq plot" for `qqplot`, "multi index" for `MultiIndex`), which the words' stems can never equal.
 */
export function titledByGluedName(section: IndexedSection, glued: string | undefined): boolean {
  if (glued === undefined || !section.documented) return false;
  const terms = tokens(fieldOf(section, 'title')!).flatMap(termsOf);
  return terms.length === 1 && terms[0] === glued;
}

/**
 * Whether a title says the query's plain words as typed (rule 1's `WRITTEN_TIER`), in any case: "differentiation" is said
 * by the heading "Differentiation", not by the class `Differential`. Plurals count as their singular ("models" is said by
 * "Model"), except for a lone word typed in the plural: "generators" and "websockets" ask for the concept, which a guide's
 * heading names in the plural ("Generators"), not for the class named in the singular (`Generator`, `WebSocket`).
 */
export function saysAsTyped(query: readonly string[]): (title: string) => boolean {
  const plain = query.filter((word) => /^[a-z]+$/i.test(word));
  const plural = query.length === 1 && plain.length === 1 && singularOf(plain[0]!) !== plain[0]!.toLowerCase();
  const form = (word: string) => (plural ? word.toLowerCase() : singularOf(word));
  const words = plain.map(form);
  return (title) => {
    const written = new Set(tokens(title).map(form));
    return words.length > 0 && words.every((word) => written.has(word));
  };
}
