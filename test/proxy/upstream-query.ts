/**
 * How the hosting service reads a search query (its `SearchQueryParser`): split as Python's
 * `str.split()` does, then every `name:value` token whose name it knows is a filter. The suites use
 * this to check what the upstream would make of the queries the proxy sends.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+001C–U+001F are white space to Python
const PYTHON_WHITESPACE = /[\t\n\v\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** The characters Python's `str.isspace()` accepts, for generators. */
export const PYTHON_SEPARATORS = [
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u001c',
  '\u001d',
  '\u001e',
  '\u001f',
  ' ',
  '\u0085',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2005',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
];

/** Every token the upstream would take as a `name:value` filter, whatever names it knows. */
export function upstreamFilters(q: string): { name: string; value: string }[] {
  return q
    .split(PYTHON_WHITESPACE)
    .filter(Boolean)
    .flatMap((token) => {
      const at = token.indexOf(':');
      const name = token.slice(0, at);
      // Filter names are identifiers; `name\:value` is the upstream's own escape for text.
      return at > 0 && /^\w+$/.test(name) ? [{ name, value: token.slice(at + 1) }] : [];
    });
}
