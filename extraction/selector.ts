import { AttributeAction, parse, SelectorType, stringify, type Selector } from 'css-what';

/** Longest selector taken from a request. */
export const MAX_SELECTOR_LENGTH = 100;
/** Compound selectors in a chain at most (`main > div.body section` has three). */
const MAX_COMPOUNDS = 4;
/** Simple selectors (type, class, id, attribute) in one compound at most. */
const MAX_PER_COMPOUND = 4;

/** Attribute tests that compare one value with one string: exists, `=`, `~=`, `^=`, `$=`, `*=`, `|=`. */
const ATTRIBUTE_ACTIONS = new Set<AttributeAction>([
  AttributeAction.Exists,
  AttributeAction.Equals,
  AttributeAction.Element,
  AttributeAction.Start,
  AttributeAction.End,
  AttributeAction.Any,
  AttributeAction.Hyphen,
]);
/** Names as documentation themes write them; nothing any CSS parser reads differently. */
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Attribute values without quotes, backslashes or control characters, so that every parser reads them alike. */
const VALUE = /^[\w .:/#=+,;@-]*$/;
/** Class and id values written as `.name` and `#name`: identifiers that need no escaping. */
const IDENTIFIER = /^-?[A-Za-z_][\w-]*$/;

function allowedToken(token: Selector): boolean {
  switch (token.type) {
    case SelectorType.Tag:
      return token.namespace === null && NAME.test(token.name);
    case SelectorType.Universal:
      return token.namespace === null;
    case SelectorType.Attribute:
      return (
        token.namespace === null &&
        NAME.test(token.name) &&
        ATTRIBUTE_ACTIONS.has(token.action) &&
        // `quirks` marks the `.class` and `#id` forms, null the bracketed one; `[… i]` and `[… s]` are refused.
        (token.ignoreCase === 'quirks' ? IDENTIFIER.test(token.value) : token.ignoreCase === null && VALUE.test(token.value))
      );
    default:
      return false;
  }
}

/**
 * A selector from a request, rebuilt from what is allowed, or undefined when it is not that simple:
 * one chain of compounds of type, universal, class, id and attribute selectors, joined by descendant
 * or child combinators, within length and count limits. Matching such a selector costs at most a walk
 * up each element's ancestors per compound, where pseudo-classes (`:has`, `:not`, `:nth-*`) and
 * sibling combinators let a short selector cost any amount of time.
 */
export function simpleSelector(raw: string): string | undefined {
  if (raw.length === 0 || raw.length > MAX_SELECTOR_LENGTH) return undefined;
  let parsed: Selector[][];
  try {
    parsed = parse(raw);
  } catch {
    return undefined;
  }
  if (parsed.length !== 1) return undefined;
  const chain = parsed[0]!;
  let compounds = 1;
  let inCompound = 0;
  for (const token of chain) {
    if (token.type === SelectorType.Descendant || token.type === SelectorType.Child) {
      // A chain starts and ends with a compound (`> a` and `a >` are not selectors of elements).
      if (inCompound === 0) return undefined;
      compounds++;
      inCompound = 0;
    } else if (!allowedToken(token) || ++inCompound > MAX_PER_COMPOUND) {
      return undefined;
    }
  }
  if (inCompound === 0 || compounds > MAX_COMPOUNDS) return undefined;
  return stringify(parsed);
}
