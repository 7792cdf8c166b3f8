import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const QUERIES = fileURLToPath(new URL('../test/realdocs/queries/', import.meta.url));

/** Every query of the real-docs suite, of all its sites: questions, names, concepts, words typed halfway. */
export const SUITE_QUERIES: readonly string[] = readdirSync(QUERIES)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .flatMap((file) => (JSON.parse(readFileSync(`${QUERIES}${file}`, 'utf8')) as { q: string }[]).map((query) => query.q));
