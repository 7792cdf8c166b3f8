import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbedCases, runExtractionCases, runLinkCases } from './embed-v3.ts';
import { runHostCases } from './host-cases.ts';
import { runSearchSectionCases } from './search-sections.ts';
import type { CaseResult } from './types.ts';

const conformanceRoot = resolve(
  process.env.DOCLENS_CONFORMANCE_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '../../../shared/conformance'),
);

const embedRoot = join(conformanceRoot, 'embed-v3');
const embedCases = loadEmbedCases(embedRoot);
const results: CaseResult[] = [
  ...runSearchSectionCases(join(conformanceRoot, 'search-sections')),
  ...runExtractionCases(embedCases),
  ...runLinkCases(embedRoot),
  ...(await runHostCases(embedCases, fileURLToPath(new URL('../../demo/docs/build/skyline/en/latest', import.meta.url)))),
];

for (const result of results) if (result.failure) console.log(`FAIL ${result.id}: ${result.failure}`);
const failed = results.filter((result) => result.failure).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
