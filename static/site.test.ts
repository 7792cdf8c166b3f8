import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotABuiltSiteError, readSite } from './site.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doclens-site-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readSite on a folder that is not a built site', () => {
  it('names the folder below that holds one: a MkDocs project built into site/, a Debian package’s html/', () => {
    for (const [sources, built] of [
      [['mkdocs.yml'], 'site'],
      [[], 'html'],
    ] as const) {
      const project = join(dir, built);
      mkdirSync(join(project, built), { recursive: true });
      for (const name of sources) writeFileSync(join(project, name), '');
      writeFileSync(join(project, built, 'index.html'), '<title>Docs</title>');
      const message = `${project} is not a built documentation site: no HTML pages at its top`;
      expect(() => readSite(project)).toThrow(`${message} (${join(project, built)} holds a built site: point --docs there)`);
    }
  });

  it('says a file is not the folder it wants', () => {
    writeFileSync(join(dir, 'index.html'), '<title>Docs</title>');
    expect(() => readSite(join(dir, 'index.html'))).toThrow(NotABuiltSiteError);
    expect(() => readSite(join(dir, 'index.html'))).toThrow(/index\.html is a file: --docs names the folder of the built pages/);
  });
});
