import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { splitSections } from '../../extraction/sections.ts';
import type { CaseResult } from './types.ts';

interface ExpectedPage {
  path: string;
  title: string;
  sections: { id: string; title: string; content: string }[];
}

function describeDifference(expected: ExpectedPage, actual: ReturnType<typeof splitSections>): string | undefined {
  if (expected.title !== actual.title) return `title ${JSON.stringify(actual.title)} != ${JSON.stringify(expected.title)}`;
  const got = actual.sections.map(({ id, title, content }) => ({ id, title, content }));
  if (got.length !== expected.sections.length) {
    return `${got.length} sections != ${expected.sections.length} (ids ${JSON.stringify(got.map((s) => s.id))})`;
  }
  for (const [index, want] of expected.sections.entries()) {
    const have = got[index]!;
    for (const key of ['id', 'title', 'content'] as const) {
      if (have[key] !== want[key]) {
        return `section ${index} ${key}: ${JSON.stringify(have[key]).slice(0, 200)} != ${JSON.stringify(want[key]).slice(0, 200)}`;
      }
    }
  }
  return undefined;
}

/** Every `search-sections/<tool>/out/*.json` against the pages in `in/`. */
export function runSearchSectionCases(root: string): CaseResult[] {
  const results: CaseResult[] = [];
  for (const tool of readdirSync(root)) {
    const outDir = join(root, tool, 'out');
    if (!existsSync(outDir)) continue;
    for (const file of readdirSync(outDir).filter((name) => name.endsWith('.json'))) {
      const name = basename(file, '.json');
      const expected = JSON.parse(readFileSync(join(outDir, file), 'utf8')) as ExpectedPage | ExpectedPage[];
      const pages = Array.isArray(expected) ? expected : [expected];
      for (const page of pages) {
        const candidates = [join(root, tool, 'in', name, page.path), join(root, tool, 'in', `${name}.html`)];
        const input = candidates.find((candidate) => existsSync(candidate));
        const id = `search-sections/${tool}/${name}/${page.path}`;
        if (!input) {
          results.push({ id, failure: 'input page not found' });
          continue;
        }
        const actual = splitSections(readFileSync(input, 'utf8'), page.path);
        results.push({ id, failure: describeDifference(page, actual) });
      }
    }
  }
  return results;
}
