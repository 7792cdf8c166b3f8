import type { PageContext } from '../../contract/index.ts';
import type { DataSource } from '../shared/api.ts';

/** Answers by source and request: the switcher and the search dialog of one page ask once between them. */
const answers = new WeakMap<DataSource, Map<string, Promise<PageContext>>>();

/** The page context of a page (this one by default), for a project and version when given. */
export function pageContextOf(source: DataSource, pageUrl: string | undefined, project?: string, version?: string): Promise<PageContext> {
  const url = new URL(pageUrl ?? window.location.href);
  url.hash = '';
  url.search = '';
  const params = { url: url.href, project, version };
  const key = JSON.stringify(params);
  const known = answers.get(source) ?? new Map<string, Promise<PageContext>>();
  answers.set(source, known);
  const asked = known.get(key);
  if (asked) return asked;
  const answer = source.pageContext(params);
  known.set(key, answer);
  // A failure is not kept: the next caller asks again.
  answer.catch(() => known.delete(key));
  return answer;
}

/** The same page in another version or translation, or that version's root when the page is missing (or cannot be confirmed). */
export async function pageOrStart(target: { url: string; root_url: string; exists: boolean | null }): Promise<string> {
  if (target.exists === true) return target.url;
  if (target.exists === false) return target.root_url;
  try {
    const url = new URL(target.url);
    if (url.origin !== window.location.origin) return target.url;
    const response = await fetch(url, { method: 'HEAD', credentials: 'same-origin' });
    return response.ok ? target.url : target.root_url;
  } catch {
    return target.url;
  }
}

/** The fragment the switcher adds when it leads to a start page because the page is missing there. */
const LANDED_MARKER = '#doclens-page-missing';

/**
 * Where a choice leads once `reached` (the chosen page, or its version's start page) is known: the
 * section the reader is on is kept where the page exists; a start page is told why it was reached.
 */
export function destinationOf(chosen: { url: string }, reached: string): string {
  return reached === chosen.url ? reached + window.location.hash : reached + LANDED_MARKER;
}

/**
 * Whether a switch that missed its page landed here; the marker is removed, so that a reload or a
 * shared link does not repeat the notice.
 */
export function takeLandedMarker(): boolean {
  if (window.location.hash !== LANDED_MARKER) return false;
  history.replaceState(history.state, '', window.location.pathname + window.location.search);
  return true;
}
