// Fails when the project's modules import each other in a circle, type-only imports included: a cycle
// makes load order matter and says two modules are one. The sources are read with oxc's parser (the
// TypeScript 7 compiler has no JavaScript API, which madge and dependency-cruiser need).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync, Visitor } from 'oxc-parser';

export interface Edge {
  to: string;
  /** Every import along this edge is type-only (erased at run time). */
  typeOnly: boolean;
}

const SOURCE = /\.(ts|mts|js|mjs)$/;

/** The module a relative specifier names, or undefined for packages and files that do not exist. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}/index.ts`].find((path) => existsSync(path) && statSync(path).isFile());
}

/** What a module imports from other modules of the project: static imports, re-exports, `import()` and `import('…').Type`. */
export function importsOf(path: string, source: string): Edge[] {
  const { module, program, errors } = parseSync(path, source);
  if (errors.length > 0) throw new Error(`${path}: ${errors[0]!.message}`);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  for (const declaration of module.staticImports) {
    // `import './x'` has no entries and runs the module; `import { type A }` alone is erased.
    const typeOnly = declaration.entries.length > 0 && declaration.entries.every((entry) => entry.isType);
    found.push({ specifier: declaration.moduleRequest.value, typeOnly });
  }
  for (const declaration of module.staticExports) {
    for (const entry of declaration.entries) {
      if (entry.moduleRequest) found.push({ specifier: entry.moduleRequest.value, typeOnly: entry.isType });
    }
  }
  new Visitor({
    ImportExpression(node) {
      if (node.source.type === 'Literal' && typeof node.source.value === 'string')
        found.push({ specifier: node.source.value, typeOnly: false });
    },
    TSImportType(node) {
      if (node.source.type === 'Literal' && typeof node.source.value === 'string')
        found.push({ specifier: node.source.value, typeOnly: true });
    },
  }).visit(program);
  const edges = new Map<string, Edge>();
  for (const { specifier, typeOnly } of found) {
    const to = resolveSpecifier(path, specifier);
    if (to === undefined) continue;
    const known = edges.get(to);
    edges.set(to, { to, typeOnly: (known?.typeOnly ?? true) && typeOnly });
  }
  return [...edges.values()];
}

/** The strongly connected components of more than one module, or of one that imports itself (Tarjan's algorithm). */
export function cyclesOf(graph: ReadonlyMap<string, Edge[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const { to } of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(to)!));
      } else if (onStack.has(to)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(to)!));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).some(({ to }) => to === node)) components.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

/** One circle through a component, as `a.ts → b.ts → a.ts`, marking the type-only steps. */
export function describeCycle(graph: ReadonlyMap<string, Edge[]>, component: string[], root: string): string {
  const members = new Set(component);
  const start = component[0]!;
  const steps: Edge[] = [];
  const seen = new Set([start]);
  // Depth-first from the first member back to it, within the component.
  const walk = (node: string): boolean => {
    for (const edge of graph.get(node) ?? []) {
      if (edge.to === start) {
        steps.push(edge);
        return true;
      }
      if (!members.has(edge.to) || seen.has(edge.to)) continue;
      seen.add(edge.to);
      steps.push(edge);
      if (walk(edge.to)) return true;
      steps.pop();
    }
    return false;
  };
  walk(start);
  return [relative(root, start), ...steps.map((edge) => `${edge.typeOnly ? '(type-only) ' : ''}${relative(root, edge.to)}`)].join(' → ');
}

function projectSources(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return listed
    .split('\n')
    .filter((path) => SOURCE.test(path) && !path.startsWith('demo/docs/') && !path.includes('/fixtures/') && !path.endsWith('.d.ts'))
    .map((path) => resolve(root, path))
    .filter((path) => existsSync(path));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const graph = new Map(projectSources(root).map((path) => [path, importsOf(path, readFileSync(path, 'utf8'))]));
  const cycles = cyclesOf(graph);
  for (const component of cycles) console.error(`import cycle: ${describeCycle(graph, component, root)}`);
  const modules = graph.size;
  const imports = [...graph.values()].reduce((sum, edges) => sum + edges.length, 0);
  if (cycles.length > 0) {
    console.error(`${cycles.length} import cycle${cycles.length === 1 ? '' : 's'} among ${modules} modules`);
    process.exit(1);
  }
  console.log(`no import cycles among ${modules} modules (${imports} imports between them, type-only ones included)`);
}
