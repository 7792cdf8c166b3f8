import { fieldOf, type IndexedSection, isObjectPage } from './fields.ts';
import { WRITTEN_AS_CODE } from './terms.ts';
import { HOW_TO_WORDS, REFERENCE_FOR_HOW_TO } from './weights.ts';

/**
 * Whether a query is a question of how to do something: `HOW_TO_WORDS` words or more besides stop words, none written as code (a
 * query that names an object as code asks for it).
 */
export const asksHowTo = (query: readonly string[]) => query.length >= HOW_TO_WORDS && !query.some((token) => WRITTEN_AS_CODE.test(token));

/**
 * What a question of several plain words asks for: a task ("publish a message with a routing key", "read a file line by
 * line", `asksHowTo`) is answered by a guide, which says how, before the entries of a reference page, each one tool, whose names
 * and signatures hold the question's words (`Exchange.publish`, `Queue.routing_key`, `fileinput.filelineno`).
 * Spared: a page titled by the name of one of its entries (SymPy's "Lambdify", whose `lambdify` documents the task at
 * length), and a page generated for one object whose entry holds more than half of the question's terms: that object's
 * page, as much an answer as a guide. One that holds half or fewer is a tool named by a word or two of the question
 * (Dask's `masked_inside` for "launch new tasks from inside a running task", `memory_usage` for "profile memory and cpu usage").
 * Returns what each section found, holding `held` of the question's `terms` terms, weighs for the query:
 * `REFERENCE_FOR_HOW_TO` for the reference's entries, else 1.
 */
export function howToWeights(
  query: readonly string[],
  terms: number,
  found: readonly IndexedSection[],
): (section: IndexedSection, held: number) => number {
  if (!asksHowTo(query)) return () => 1;
  const objectPages = new Set(found.filter((section) => section.apiName && namesItsPage(section)).map((section) => section.path));
  return (section: IndexedSection, held: number) =>
    section.apiName && (isObjectPage(section) ? held <= terms / 2 : !objectPages.has(section.path)) ? REFERENCE_FOR_HOW_TO : 1;
}

/** Whether a documented object's name is its page's title ("Lambdify" of `sympy.utilities.lambdify.lambdify`). */
const namesItsPage = (section: IndexedSection) => fieldOf(section, 'title')!.toLowerCase() === section.pageTitle.trim().toLowerCase();
