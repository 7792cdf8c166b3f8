import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const engine = fileURLToPath(new URL('../../search/', import.meta.url));

/** Issue 35: a newcomer reads the engine file by file, so none of them (its tests aside) grows past this. */
const MAX_LINES = 300;

describe('the search engine', () => {
  const files = readdirSync(engine).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));

  it('has its modules', () => {
    expect(files).toContain('index.ts');
  });

  it.each(files)(`search/%s is at most ${MAX_LINES} lines`, (file) => {
    const lines = readFileSync(`${engine}${file}`, 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(MAX_LINES);
  });
});
