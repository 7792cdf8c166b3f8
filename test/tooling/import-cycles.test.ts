import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cyclesOf, describeCycle, importsOf } from '../../scripts/import-cycles.ts';

const folder = mkdtempSync(join(tmpdir(), 'doclens-cycles-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Writes the modules and builds the import graph the check builds. */
function graphOf(modules: Record<string, string>) {
  for (const [name, source] of Object.entries(modules)) writeFileSync(join(folder, name), source);
  return new Map(Object.entries(modules).map(([name, source]) => [join(folder, name), importsOf(join(folder, name), source)]));
}

describe('the import cycle check', () => {
  it('finds a cycle closed by a type-only import, and says which step is type-only', () => {
    const graph = graphOf({
      'a.ts': "import { b } from './b.ts';\nexport const a = b;",
      'b.ts': "import type { C } from './c.ts';\nexport const b = 1 as unknown as C;",
      'c.ts': "export type { A } from './a.ts';\nexport type C = number;",
    });
    const cycles = cyclesOf(graph);
    expect(cycles).toHaveLength(1);
    expect(describeCycle(graph, cycles[0]!, folder)).toBe('a.ts → b.ts → (type-only) c.ts → (type-only) a.ts');
  });

  it("follows import() and import('…').Type, and ignores packages", () => {
    const graph = graphOf({
      'd.ts': "import { z } from 'zod';\nexport const load = () => import('./e.ts');\nexport { z };",
      'e.ts': "export type D = typeof import('./d.ts').load;",
    });
    expect(cyclesOf(graph).map((cycle) => cycle.length)).toEqual([2]);
  });

  it('finds no cycle where the imports go one way', () => {
    const graph = graphOf({ 'f.ts': "import './g.ts';", 'g.ts': 'export const g = 1;' });
    expect(graph.get(join(folder, 'f.ts'))).toEqual([{ to: join(folder, 'g.ts'), typeOnly: false }]);
    expect(cyclesOf(graph)).toEqual([]);
  });
});
