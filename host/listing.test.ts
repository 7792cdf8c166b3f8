import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentPagesIn } from './listing.ts';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true })));
});

describe('contentPagesIn', () => {
  it("lists pages named _… (fontTools' font tables), not folders named _… or .…, hidden files or generated pages", async () => {
    const root = await mkdtemp(join(tmpdir(), 'doclens-listing-'));
    folders.push(root);
    const files = [
      'index.html',
      'ttLib/tables/_g_l_y_f.html',
      '_common_extlinks.html',
      '_static/theme.html',
      '_modules/fontTools/ttLib.html',
      '.git/description.html',
      '.hidden.html',
      'genindex.html',
      'notes.txt',
    ];
    for (const file of files) {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await writeFile(join(root, file), '<p>x</p>');
    }
    expect(await contentPagesIn(root)).toEqual(['_common_extlinks.html', 'index.html', 'ttLib/tables/_g_l_y_f.html']);
  });
});
