import type { FieldSearch } from './field-search.ts';
import { typoEdits } from './weights.ts';

/**
 * Whether a word the reader may still be typing, that starts no word of the site, is a slip readers often make (see
 * `typoCost`) of a spelling the site has among its likeliest corrections: "cookbok" is "cookbook" typed with a letter
 * once, not "cook…" with more to come, so the stems it starts with ("cook") are other words, as for a word before the
 * last. A cut word with no such slip keeps them ("handlr" may still be "handl…").
 */
export function slipOfSiteWord(search: FieldSearch, term: string, typed: string): boolean {
  const edits = typoEdits(typed);
  return edits !== 0 && search.corrections(term, typed, edits).some(({ cost, distance }) => cost < distance);
}
