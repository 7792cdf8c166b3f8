import sinon from 'sinon';
import type { WidgetFixtures } from '../test/fixtures/widget-fixtures.ts';
// The globals the loader declares (window.doclens), for the tests of pages that load its bundle.
import type {} from './loader/doclens.ts';

/** The servers web-test-runner started for these tests. */
export const servers: WidgetFixtures = JSON.parse(document.getElementById('doclens-fixtures')?.textContent ?? '{}') as WidgetFixtures;

export const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** Resolves when `check` holds, polling each frame; rejects after `timeout` ms with `message`. */
export async function until(check: () => boolean, message = 'condition', timeout = 5000): Promise<void> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeout) throw new Error(`timed out waiting for ${message}`);
    await nextFrame();
  }
}

/**
 * Sinon's fake clock for `setTimeout` alone: the test moves time past a delay (`tick`, `tickAsync`)
 * instead of sleeping through it. Animation frames, fetches and the test runner keep real time.
 */
export function fakeTimeouts(): sinon.SinonFakeTimers {
  return sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

/** How a request the page made ended: its whole answer read, or aborted, or failed. */
export type FetchOutcome = 'read' | 'aborted' | 'failed';

export interface WatchedFetch {
  url: URL;
  /** Settles once the page has read the whole answer, or the request was aborted or failed. */
  outcome: Promise<FetchOutcome>;
}

/** Every request the page makes through `fetch` from now on, with how it ended. */
export function watchFetches(): { requests: WatchedFetch[]; restore(): void } {
  const original = window.fetch;
  const requests: WatchedFetch[] = [];
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    let settle: (outcome: FetchOutcome) => void = () => undefined;
    requests.push({
      url: new URL(input instanceof Request ? input.url : String(input)),
      outcome: new Promise((resolve) => (settle = resolve)),
    });
    const ended = (error: unknown) => settle((error as Error).name === 'AbortError' ? 'aborted' : 'failed');
    try {
      const response = await original(input, init);
      const json = response.json.bind(response);
      response.json = async () => {
        try {
          const body: unknown = await json();
          settle('read');
          return body;
        } catch (error) {
          ended(error);
          throw error;
        }
      };
      return response;
    } catch (error) {
      ended(error);
      throw error;
    }
  };
  const restore = () => {
    window.fetch = original;
  };
  return { requests, restore };
}

/**
 * Resolves once an image asked for now has failed to load: the load errors of images put in the page
 * before it (an attack's `<img src=x onerror>`) have been dispatched by then.
 */
export function afterEarlierImageErrors(): Promise<void> {
  const probe = new Image();
  const settled = new Promise<void>((resolve) => {
    probe.addEventListener('error', () => resolve(), { once: true });
    probe.addEventListener('load', () => resolve(), { once: true });
  });
  probe.src = 'x';
  return settled.then(nextFrame);
}
