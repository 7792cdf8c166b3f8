import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS, TOKEN_ENV } from '../../proxy/config.ts';
import { loaderDataAttributes } from '../fixtures/loader-attributes.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');

/** The configuration reference cannot drift from the code: every setting and attribute is in it. */
describe('the README configuration reference', () => {
  it('lists every proxy setting with its flag, environment variable and config key', () => {
    for (const setting of SETTINGS) {
      expect(readme, setting.key).toContain(`| \`${setting.flag}\` | \`${setting.env}\` | \`${setting.key}\` |`);
    }
    expect(readme).toContain(`\`${TOKEN_ENV}\``);
  });

  it('lists every attribute of the three elements', () => {
    for (const component of ['search/doclens-search.ts', 'preview/doclens-preview.ts', 'versions/doclens-versions.ts']) {
      const source = read(`widget/${component}`);
      const attributes = [...source.matchAll(/@property\(([^)]*)\)\s+(\w+)/g)].map(
        ([, options, name]) => /attribute: '([^']+)'/.exec(options!)?.[1] ?? name!.toLowerCase(),
      );
      expect(attributes.length).toBeGreaterThan(3);
      for (const attribute of attributes) expect(readme, `${component}: ${attribute}`).toContain(`\`${attribute}\``);
    }
  });

  it('lists every data- attribute the loader reads', () => {
    const names = loaderDataAttributes();
    expect(names.size).toBeGreaterThan(8);
    for (const name of names) expect(readme, name).toContain(`\`${name}`);
  });
});
