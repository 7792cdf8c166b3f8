import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (page: string) => new Set([...read(page).matchAll(/^#+ (.*)$/gm)].map(([, heading]) => anchorOf(heading!)));

describe('the documentation pages', () => {
  it('keep the README short enough to read in ten minutes', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThanOrEqual(12 * 1024);
  });

  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const text = read(page).replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split('#');
      const file = path ? normalize(join(dirname(page), path)) : page;
      expect(existsSync(join(root, file)), `${page} → ${target}`).toBe(true);
      if (anchor && file.endsWith('.md')) expect(anchorsOf(file), `${page} → ${target}`).toContain(anchor);
    }
  });

  it("names every folder of the repository in the architecture's layout, and no folder that is not", () => {
    const page = read('docs/architecture.md');
    const layout = page.slice(page.indexOf('## Layout'), page.indexOf('\n## ', page.indexOf('## Layout') + 1));
    // Each entry starts with the folders it is about: "- `proxy/http/` — …", "- `cli/` and `bin/` — …".
    const entries = [...layout.matchAll(/^\s*- (.*?) —(?: |$)/gm)].map(([, head]) => head!);
    const named = new Set(entries.flatMap((head) => [...head.matchAll(/`([\w.-]+(?:\/[\w.-]+)*)\/`/g)].map(([, folder]) => folder!)));
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
    // Folders of code, two levels deep; data folders (fixtures, demo pages, screenshots) are named by their parent's entry.
    const folders = new Set(
      tracked
        .map((path) => path.split('/').slice(0, -1))
        .flatMap((parts) => [parts.slice(0, 1), parts.slice(0, 2)])
        .filter((parts) => parts.length > 0 && !['fixtures', 'queries', 'test-pages', 'screenshots', 'pending'].includes(parts.at(-1)!))
        .map((parts) => parts.join('/'))
        .filter((folder) => !folder.startsWith('demo/')),
    );
    expect(new Set([...folders].filter((folder) => !named.has(folder)))).toEqual(new Set());
    for (const folder of named) expect(existsSync(join(root, folder)), folder).toBe(true);
  });
});
