/** Which titles say a query: the words of rule 1 of `ranking.ts`. */
import { fieldOf, type IndexedSection } from './fields.ts';
import { singularOf, stem, termsOf, tokens } from './terms.ts';

/** The number a numbered heading starts with (`5.1.3. List Comprehensions`, `8. Errors`): its place in the book, not a version. */
export const SECTION_NUMBER = /^\s*\d+(?:\.\d+)*\.\s+(?=\S)/;

/** Whether a title's terms (words by their stems, names whole, stop words aside) are the query's. */
export function sameWords(title: string, wanted: ReadonlySet<string>): boolean {
  const stems = titleTerms(title);
  return stems.size === wanted.size && holdsAll(stems, wanted);
}

/** A title's terms: words by their stems, names whole, stop words and a section's number aside. */
export const titleTerms = (title: string) => new Set(tokens(title.replace(SECTION_NUMBER, '')).flatMap(termsOf));

export const holdsAll = (terms: ReadonlySet<string>, wanted: ReadonlySet<string>) => [...wanted].every((term) => terms.has(term));

/** Whether a title says each of the words, as written (in any case, plurals as their singular). */
export function saysAll(title: string, words: readonly string[]): boolean {
  const written = new Set(tokens(title).map(singularOf));
  return words.every((word) => written.has(word));
}

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
