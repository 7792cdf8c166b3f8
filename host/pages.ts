import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { LRUCache } from 'lru-cache';
import { parseHtml, type ParsedHtml } from '../extraction/html/parse.ts';
import { contentPagesIn } from './listing.ts';
import type { Version } from './registry.ts';

/**
 * The absolute path of `file` in `root`, or undefined when it names nothing or would leave `root`.
 * Containment is checked on the path as written (so `..` cannot climb out); symbolic links inside
 * `root` are then followed wherever they point, as nginx and `python -m http.server` do: packaged
 * docs link their scripts, styles and fonts to shared folders.
 */
export async function safePath(root: string, file: string): Promise<string | undefined> {
  const base = resolve(root);
  const candidate = resolve(base, file);
  if (candidate !== base && !candidate.startsWith(base + sep)) return undefined;
  return (await stat(candidate).catch(() => undefined)) ? candidate : undefined;
}

/**
 * Pages parsed, the recent ones kept for further fragments: read at once (the embed threads read one
 * page per job, `embed-jobs.ts`). Keyed by path, size and modification time, so a rebuilt page is parsed again.
 */
export class ParsedPages {
  private readonly parsed: LRUCache<string, { page: ParsedHtml; bytes: number }>;

  constructor(maxBytes: number) {
    // A parsed tree takes a few times the bytes of its source.
    this.parsed = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => Math.max(1, entry.bytes * 4) });
  }

  /** The page at an absolute path parsed, or undefined when it is no file (or could not be read). */
  get(path: string): ParsedHtml | undefined {
    try {
      const info = statSync(path);
      if (!info.isFile()) return undefined;
      const key = `${path}\0${info.size}\0${info.mtimeMs}`;
      const cached = this.parsed.get(key);
      if (cached) return cached.page;
      const html = readFileSync(path, 'utf8');
      const page = parseHtml(html);
      this.parsed.set(key, { page, bytes: html.length });
      return page;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === undefined) throw error;
      return undefined;
    }
  }
}

/** Reads pages from the versions' folders. */
export class PageStore {
  private readonly parsed = new ParsedPages(256 * 1024 * 1024);

  /** The absolute path of a page of a version, or undefined when it has none there. */
  async locate(version: Version, file: string): Promise<string | undefined> {
    return version.root ? safePath(version.root, file) : undefined;
  }

  /** A page's file and its size, or undefined when the version has no such file. */
  async file(version: Version, file: string): Promise<{ path: string; bytes: number } | undefined> {
    const path = await this.locate(version, file);
    const info = path === undefined ? undefined : await stat(path).catch(() => undefined);
    return path !== undefined && info?.isFile() ? { path, bytes: info.size } : undefined;
  }

  async read(version: Version, file: string): Promise<string | undefined> {
    const path = await this.locate(version, file);
    return path === undefined ? undefined : readFile(path, 'utf8').catch(() => undefined);
  }

  /** The page parsed once and reused for every fragment asked of it, on this thread (the real-docs suite reads pages so). */
  async parse(version: Version, file: string): Promise<ParsedHtml | undefined> {
    const path = await this.locate(version, file);
    return path === undefined ? undefined : this.parsed.get(path);
  }

  /** The content pages of a version, as paths relative to its folder. */
  async contentPages(version: Version): Promise<string[]> {
    return version.root ? contentPagesIn(version.root) : [];
  }
}

/**
 * Where a thread reads its pages, grown to the largest (1 MB at first, on its first page): a new buffer per page
 * (as `readFileSync` gives) comes from the C heap, which keeps what they took at their peak for as long as the thread runs.
 */
let readBuffer = Buffer.alloc(0);

/** Bytes of a page decoded into one string: each part stays below V8's large objects (see `HtmlSource`). */
const PART_BYTES = 16 * 1024;

/** A page's HTML, read synchronously in parts (see `HtmlSource`): what a thread that splits or previews pages reads. */
export function readParts(path: string): string[] {
  const fd = openSync(path, 'r');
  let length = 0;
  try {
    const size = fstatSync(fd).size;
    if (size > readBuffer.length) readBuffer = Buffer.alloc(Math.max(size, 1024 * 1024));
    for (let read = 1; read > 0 && length < size; length += read) read = readSync(fd, readBuffer, length, size - length, null);
  } finally {
    closeSync(fd);
  }
  // A character cut between two parts is kept for the next by the decoder.
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  for (let start = 0; start < length; start += PART_BYTES)
    parts.push(decoder.write(readBuffer.subarray(start, Math.min(length, start + PART_BYTES))));
  parts.push(decoder.end());
  return parts;
}
