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
