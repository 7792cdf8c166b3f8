/**
 * A full garbage collection on demand. V8 lets garbage pile up to several times the live heap before
 * it collects (a dead 1 MB page tree is 10–20 MB), so a process that parses many large pages would
 * hold hundreds of megabytes it no longer uses; collecting after a known amount of such garbage keeps
 * its memory near what it really holds.
 *
 * It collects only where the process was started with Node's `--expose-gc` (which exposes `gc` in
 * its worker threads too): `bin/doclens.js` starts the commands that index so. Turning the flag on
 * after start is what Node documents as unpredictable; without it, V8 collects as it sees fit.
 */
export function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  return typeof exposed === 'function' ? (exposed as () => void) : () => undefined;
}
