/**
 * The search in the page's address: while the dialog is open its query is in a fragment parameter,
 * so that Back closes the dialog and a link opens it.
 */

/**
 * The fragment parameter that holds the query while the dialog is open; no docs theme uses it, so the theme's
 * `?q=` and anchors keep their meaning.
 */
const QUERY_FRAGMENT_PARAM = 'doclens-q';

/** The words of a `#doclens-q=…` fragment; undefined when the URL has none. */
export function queryInFragment(url: string): string | undefined {
  const fragment = new URL(url).hash.slice(1);
  return fragment ? (new URLSearchParams(fragment).get(QUERY_FRAGMENT_PARAM) ?? undefined) : undefined;
}

/** The URL with its fragment replaced by the search for `words`. */
export function withQueryFragment(url: string, words: string): string {
  const withQuery = new URL(url);
  withQuery.hash = new URLSearchParams({ [QUERY_FRAGMENT_PARAM]: words }).toString();
  return withQuery.href;
}

/** The URL without its fragment. */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
