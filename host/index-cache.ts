import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleExtension } from '../runtime/package-files.ts';

/** `$XDG_CACHE_HOME/doclens`, else `~/.cache/doclens`. */
export function defaultIndexCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'doclens');
}

/** The code an index depends on besides the pages: a saved index built by other code is not reused. */
const INDEXER_SOURCES = ['../extraction/', `./search-index${moduleExtension}`];

let indexerHash: Promise<string> | undefined;

async function sourceFiles(path: string): Promise<string[]> {
  if (!path.endsWith('/')) return [path];
  const names = await readdir(path, { recursive: true });
  return names
    .filter((name) => name.endsWith(moduleExtension) && !name.endsWith(`.test${moduleExtension}`))
    .sort()
    .map((name) => join(path, name));
}

function hashIndexer(): Promise<string> {
  indexerHash ??= (async () => {
    const hash = createHash('sha256');
    for (const source of INDEXER_SOURCES) {
      for (const file of await sourceFiles(fileURLToPath(new URL(source, import.meta.url)))) hash.update(await readFile(file));
    }
    return hash.digest('hex');
  })();
  return indexerHash;
}

/** What a version's index is built from: the indexer's code and each page's path, size and modification time. */
export async function indexKey(root: string, files: string[]): Promise<string> {
  const hash = createHash('sha256').update(await hashIndexer());
  const stats = await Promise.all(files.map((file) => stat(join(root, file)).catch(() => undefined)));
  for (const [index, file] of files.entries()) hash.update(`${file}\0${stats[index]?.size ?? -1}\0${stats[index]?.mtimeMs ?? -1}\n`);
  return hash.digest('hex');
}

/**
 * Indexes saved under a folder, one file per folder of pages: its first line is the key the index
 * was built for, the rest the index. A file whose key differs is rebuilt and overwritten.
 */
export class IndexCache {
  constructor(readonly dir: string) {}

  private fileFor(root: string): string {
    return join(this.dir, `index-${createHash('sha256').update(resolve(root)).digest('hex').slice(0, 32)}.json`);
  }

  /** The saved index of `root` if it was built for `key`. */
  async load(root: string, key: string): Promise<string | undefined> {
    const saved = await readFile(this.fileFor(root), 'utf8').catch(() => undefined);
    const newline = saved?.indexOf('\n') ?? -1;
    return saved !== undefined && saved.slice(0, newline) === key ? saved.slice(newline + 1) : undefined;
  }

  /**
   * Saves through a temporary file, so that a reader never sees half an index. The index comes in
   * parts, each written before the next is asked for: a large index is never held whole as text.
   */
  async save(root: string, key: string, json: Iterable<string>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = this.fileFor(root);
    const partial = `${file}.${randomUUID()}.tmp`;
    const written = await open(partial, 'w');
    try {
      await written.writeFile(`${key}\n`);
      // `writeFile` writes a part whole, from where the last one ended.
      for (const part of json) await written.writeFile(part);
    } finally {
      await written.close();
    }
    await rename(partial, file);
  }
}
