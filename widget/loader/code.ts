/**
 * The elements' code, each in chunks of its own beside the loader, fetched on first use (a shortcut,
 * a hover, a focus) or once the browser is idle after the page's load event: the first load of a
 * page carries the loader alone.
 */
const CODE = {
  search: () => import('../search/doclens-search.ts'),
  preview: () => import('../preview/doclens-preview.ts'),
  versions: () => import('../versions/doclens-versions.ts'),
  matches: () => import('../matches/doclens-matches.ts'),
} as const;

export type Part = keyof typeof CODE;
export const PARTS = Object.keys(CODE) as Part[];

const loading = new Map<Part, Promise<void>>();

/** Loads the code of `part` once (again after a failure: a flaky network must not disable it for the page). */
export function loadCode(part: Part): Promise<void> {
  let pending = loading.get(part);
  if (!pending) {
    pending = CODE[part]().then(
      () => undefined,
      (error: unknown) => {
        loading.delete(part);
        throw error;
      },
    );
    loading.set(part, pending);
  }
  return pending;
}

/** Starts loading the code of `part`, for later use: a failure is only reported. */
export function preload(part: Part): void {
  loadCode(part).catch(() => console.warn(`doclens: the ${part} code did not load`));
}

/** Loads every part named, when the browser has nothing else to do (soon after, where it never is idle). */
export function loadWhenIdle(parts: Iterable<Part>): void {
  const load = () => {
    for (const part of parts) preload(part);
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}
