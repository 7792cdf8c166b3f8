import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostOptions, HOST_TOKEN_ENV } from '../../cli/host.ts';
import { SETTINGS, TOKEN_ENV } from '../../proxy/config.ts';
import { COMPONENTS, componentApi, errorCodes, REFERENCE, withGeneratedBlocks } from '../../scripts/reference.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const reference = read(REFERENCE);

/** The rows of the markdown table that follows `heading`, as lists of cells. */
function tableAfter(page: string, heading: string): string[][] {
  const start = page.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const lines = page.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The `data-*` attributes the loader reads from its tag. */
function loaderAttributes(): Set<string> {
  const loader = read('widget/loader/doclens.ts');
  return new Set(
    [...loader.matchAll(/(?:data|dataset)\.(\w+)/g)].map(
      ([, name]) => `data-${name!.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
    ),
  );
}

describe('the reference', () => {
  it('has every generated table as the code makes it today (run npm run docs:reference after changing the code)', () => {
    expect(reference).toBe(withGeneratedBlocks(reference));
  });

  it('lists every proxy setting with its flag, environment variable and config key, and the token', () => {
    for (const setting of SETTINGS) {
      expect(reference, setting.key).toContain(`| \`${setting.flag}\` | \`${setting.env}\` | \`${setting.key}\` |`);
    }
    expect(reference).toContain(`\`${TOKEN_ENV}\``);
  });

  it('lists every error code, and only those', () => {
    const listed = tableAfter(reference, '## Error codes').map(([code]) => code!.replace(/`/g, ''));
    expect(listed).toEqual(errorCodes().map(({ code }) => code));
    expect(listed).toContain('internal_error');
  });

  it("lists the loader's data- attributes as the loader reads them, no more and no fewer", () => {
    const listed = tableAfter(reference, "### The loader's attributes").flatMap(([cell]) =>
      [...cell!.matchAll(/`(data-[a-z-]+)/g)].map(([, name]) => name!),
    );
    const read = loaderAttributes();
    expect(read.size).toBeGreaterThan(8);
    expect(new Set(listed)).toEqual(read);
  });

  it('pairs each loader attribute only with attributes its elements have', () => {
    const attributes = new Set(COMPONENTS.flatMap((path) => componentApi(path).attributes.map((attribute) => attribute.name)));
    for (const [, passed] of tableAfter(reference, "### The loader's attributes")) {
      for (const [, name] of passed!.matchAll(/`([a-z-]+)(?:="[^"]*")?`/g)) expect(attributes, name).toContain(name);
    }
  });

  it("lists the local docs host's options as the command takes them, and its token's variable", () => {
    const listed = tableAfter(reference, '## Local docs host options')
      .map(([option]) => /^`--([a-z-]+)/.exec(option!)?.[1])
      .filter((name) => name !== undefined);
    expect(new Set(listed)).toEqual(new Set(Object.keys(hostOptions)));
    expect(reference).toContain(`\`${HOST_TOKEN_ENV}\``);
  });

  it('documents every element: attributes, methods, events and parts from its source', () => {
    for (const path of COMPONENTS) {
      const api = componentApi(path);
      expect(reference).toContain(`### \`<${api.tag}>\``);
      expect(api.methods.length + api.events.length, path).toBeGreaterThan(1);
      expect(api.parts.length, path).toBeGreaterThan(2);
    }
    // The matches bar has no show()/hide(): its methods are step() and clear().
    expect(componentApi('widget/matches/doclens-matches.ts').methods.map((method) => method.name)).toEqual([
      'step(direction: 1 | -1)',
      'clear()',
    ]);
  });

  it('lists every --doclens- custom property the widget reads', () => {
    const files = readdirSync(new URL('../../widget/', import.meta.url), { recursive: true, encoding: 'utf8' });
    const sources = files
      .filter((file) => file.endsWith('.ts') && !/test/.test(file))
      .map((file) => read(`widget/${file}`))
      .join('\n');
    const properties = new Set([...sources.matchAll(/var\((--doclens-[a-z-]+)/g)].map(([, name]) => name!));
    expect(properties.size).toBeGreaterThan(15);
    for (const property of properties) expect(reference, property).toContain(`\`${property}\``);
  });
});
