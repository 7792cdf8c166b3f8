import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StaticPreviewFile } from '../contract/index.ts';
import { workOn } from './page-work.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doclens-page-work-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const section = (id: string, text: string) => `<section id="${id}"><h2>${id}</h2><p>${text}</p></section>`;

describe('a page read again for its previews', () => {
  it('previews only the targets new since its first read, keeping the others from its files, in the order of the links', () => {
    const file = join(dir, 'api.html');
    writeFileSync(
      file,
      `<html><body><main><h1>API</h1>${section('run', 'Runs a job.')}${section('stop', 'Stops it.')}</main></body></html>`,
    );
    const previewsAt = join(dir, 'previews', 'api.html');
    const input = { file, pageUrl: 'https://doclens.invalid/api.html', path: 'api.html', versionPaths: [''], indexedAs: undefined };
    const first = workOn('page', { ...input, fragments: ['run'], previewsAt });
    expect(first.fragments).toEqual(['run']);
    const written = (): StaticPreviewFile => JSON.parse(readFileSync(`${previewsAt}.json`, 'utf8')) as StaticPreviewFile;
    // What the first read wrote stands: a preview made again would say the page's words.
    const kept = { title: 'run', content: '<p>As written by the first read.</p>', truncated: false };
    writeFileSync(`${previewsAt}.json`, JSON.stringify({ previews: { ...written().previews, run: kept } }));

    const again = workOn('previews', {
      file,
      pageUrl: input.pageUrl,
      fragments: ['stop', 'run'],
      previewed: ['run'],
      previewsAt,
      writtenParts: 0,
    });

    expect(again.previews).toBe(3);
    const { previews } = written();
    expect(Object.keys(previews)).toEqual(['', 'stop', 'run']);
    expect(previews.run).toEqual(kept);
    expect(previews.stop!.content).toContain('Stops it.');
  });
});

describe('an index saved by a page thread', () => {
  it('writes each part gzip-compressed in the folder, made if missing, and gives the bytes written', () => {
    const folder = join(dir, 'data', 'search');
    const parts = [
      { name: 'terms-0', json: '{"part":"terms","index":0,"terms":[]}' },
      { name: 'head', json: '{"part":"head"}' },
    ];

    const bytes = workOn('parts', { folder, parts });

    expect(readdirSync(folder).sort()).toEqual(['head.json.gz', 'terms-0.json.gz']);
    for (const { name, json } of parts) expect(gunzipSync(readFileSync(join(folder, `${name}.json.gz`))).toString()).toBe(json);
    const written = readdirSync(folder).reduce((sum, file) => sum + readFileSync(join(folder, file)).length, 0);
    expect(bytes).toBe(written);
  });
});
