import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleExtension } from '../runtime/package-files.ts';
import { FORMAT_VERSION, type SavedPart } from '../search/index.ts';

/** `$XDG_CACHE_HOME/doclens`, else `~/.cache/doclens`. */
export function defaultIndexCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'doclens');
}

/**
 * What an index depends on besides the pages: the code that splits pages and builds the index, and
 * the libraries that code imports (`index-cache.test.ts` checks that these cover every module the
 * index worker's engine reaches). A saved index built by other code or libraries is not reused.
 */
export const INDEXER = {
  folders: ['../extraction/', '../search/'].map((folder) => fileURLToPath(new URL(folder, import.meta.url))),
  packages: [
    'cheerio',
    'css-select',
    'css-what',
    'dom-serializer',
    'domhandler',
    'domutils',
    'htmlparser2',
    'lru-cache',
    'minisearch',
    'parse5',
    'parse5-htmlparser2-tree-adapter',
    'stemmer',
  ],
};

let indexerHash: Promise<string> | undefined;

async function sourceFiles(folder: string): Promise<string[]> {
  const names = await readdir(folder, { recursive: true });
  return names
    .filter((name) => name.endsWith(moduleExtension) && !name.endsWith(`.test${moduleExtension}`))
    .sort()
    .map((name) => join(folder, name));
}

/** The version of a package as resolved from here (its `package.json` above its entry point). */
async function packageVersion(name: string): Promise<string> {
  for (let folder = dirname(createRequire(import.meta.url).resolve(name)); folder !== dirname(folder); folder = dirname(folder)) {
    const manifest = await readFile(join(folder, 'package.json'), 'utf8').catch(() => undefined);
    const parsed = manifest === undefined ? undefined : (JSON.parse(manifest) as { name?: string; version?: string });
    if (parsed?.name === name) return parsed.version ?? '';
  }
  throw new Error(`no package.json for ${name}`);
}

/** A hash of the indexer's code (`folders`), its libraries' versions and the saved index's format. */
export async function hashIndexer({ folders, packages }: typeof INDEXER): Promise<string> {
  const hash = createHash('sha256').update(`format ${FORMAT_VERSION}\n`);
  for (const folder of folders) for (const file of await sourceFiles(folder)) hash.update(await readFile(file));
  for (const name of packages) hash.update(`${name}@${await packageVersion(name)}\n`);
  return hash.digest('hex');
}

/** Each page's path, size and modification time, a line each: a page added, removed or rebuilt changes them. */
async function pageLines(root: string, files: string[]): Promise<string[]> {
  const stats = await Promise.all(files.map((file) => stat(join(root, file)).catch(() => undefined)));
  return files.map((file, index) => `${file}\0${stats[index]?.size ?? -1}\0${stats[index]?.mtimeMs ?? -1}\n`);
}

/** A hash of the pages alone (see `pageLines`), without the indexer. */
export async function hashPages(root: string, files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const line of await pageLines(root, files)) hash.update(line);
  return hash.digest('hex');
}

/** What a version's index is built from: the indexer (see `INDEXER`) and the pages (see `pageLines`). */
export async function indexKey(root: string, files: string[]): Promise<string> {
  indexerHash ??= hashIndexer(INDEXER);
  const hash = createHash('sha256').update(await indexerHash);
  for (const line of await pageLines(root, files)) hash.update(line);
  return hash.digest('hex');
}

/**
 * Indexes saved under a folder, one file per folder of pages: its first line is the key the index
 * was built for, then one line per part of the index. A file whose key differs is rebuilt and overwritten.
 */
export class IndexCache {
  constructor(readonly dir: string) {}

  private fileFor(root: string): string {
    return join(this.dir, `index-${createHash('sha256').update(resolve(root)).digest('hex').slice(0, 32)}.json`);
  }

  /** The saved index's parts, if it was built for `key`. */
  async load(root: string, key: string): Promise<string[] | undefined> {
    const saved = await readFile(this.fileFor(root), 'utf8').catch(() => undefined);
    const lines = saved?.split('\n');
    return lines?.[0] === key ? lines.slice(1, -1) : undefined;
  }

  /** Whether the saved index was built for `key`: its first line, read without the rest. */
  async holds(root: string, key: string): Promise<boolean> {
    const file = await open(this.fileFor(root)).catch(() => undefined);
    if (!file) return false;
    try {
      const head = Buffer.alloc(key.length + 1);
      const { bytesRead } = await file.read(head, 0, head.length, 0);
      return head.toString('utf8', 0, bytesRead) === `${key}\n`;
    } finally {
      await file.close();
    }
  }

  /**
   * Saves through a temporary file, so that a reader never sees half an index. Each part is written
   * before the next is asked for: a large index is never held whole as text.
   */
  async save(root: string, key: string, parts: AsyncIterable<SavedPart> | Iterable<SavedPart>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = this.fileFor(root);
    const partial = `${file}.${randomUUID()}.tmp`;
    const written = await open(partial, 'w');
    try {
      await written.writeFile(`${key}\n`);
      // `writeFile` writes a part whole, from where the last one ended. JSON has no raw line breaks.
      for await (const { json } of parts) await written.writeFile(`${json}\n`);
    } finally {
      await written.close();
    }
    await rename(partial, file);
  }
}
