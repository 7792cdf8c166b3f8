import { singularOf, tokens } from './terms.ts';

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
