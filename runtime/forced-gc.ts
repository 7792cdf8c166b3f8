import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection on demand. V8 lets garbage pile up to several times the live heap before
 * it collects (a dead 1 MB page tree is 10–20 MB), so a process that parses many large pages would
 * hold hundreds of megabytes it no longer uses; collecting after a known amount of such garbage keeps
 * its memory near what it really holds.
 */
export function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  // The flag exposes `gc` in contexts created while it is set; it is unset again at once. Flags are
  // the process's: another thread doing the same may unset it in between, hence a few attempts.
  for (let attempt = 0; attempt < 5; attempt++) {
    setFlagsFromString('--expose-gc');
    try {
      const gc = runInNewContext('gc') as unknown;
      if (typeof gc === 'function') return gc as () => void;
    } catch {
      // `gc` is not defined: unset meanwhile.
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  return () => undefined;
}
