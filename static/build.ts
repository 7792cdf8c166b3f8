import { mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { StaticPageList, StaticProject, StaticSiteFile, StaticVersion } from '../contract/static.ts';
import { contentPagesIn, listHtml } from '../host/listing.ts';
import type { Project } from '../host/registry.ts';
import { compareVersions, versionStatus } from '../versions/version-order.ts';
import { packagePath } from '../runtime/package-files.ts';
import { type PartSizes, type SavedPart, SearchIndex } from '../search/index.ts';
import { injectTag } from './inject.ts';
import { LinkTargets, type PageKey, pagePath } from './links.ts';
import { PagePool } from './page-pool.ts';
import type { PageJobInput, PageJobKind, PageJobOutput } from './page-work.ts';
import { readSite, siteNameOf, type SiteVersion, type StaticSite } from './site.ts';

export { NotABuiltSiteError } from './site.ts';

export interface BuildOptions {
  /** The built site's folder. */
  docs: string;
  /** Where the files go (default: `_doclens/` in the site's folder). */
  out?: string | undefined;
  /** A manifest of `doclens host`'s form naming the site's projects and versions (default: read from the folders). */
  manifest?: string | undefined;
  /** Write the widget's tag into every page of the site. */
  inject?: boolean | undefined;
  /**
   * The site's root URL, relative to the files' folder, where the two are served apart (default: the
   * path from `out` to `docs` on disk, `../` for the default `out`).
   */
  root?: string | undefined;
}

/**
 * How far the build is: pages indexed and previewed, then pages read again for the previews of
 * targets in them that only pages read after them link to.
 */
export interface BuildProgress {
  phase: 'pages' | 'previews';
  done: number;
  total: number;
}

export interface BuildSummary {
  out: string;
  pages: number;
  /** Sections the search indexes. */
  sections: number;
  /** Previews written: each page's opening and every target the site links to (none of a page that forwards). */
  previews: number;
  /** Bytes of the files written, the widget's included. */
  bytes: number;
  seconds: number;
  /** Pages that got the widget's tag (0 without `inject`). */
  injected: number;
  /** Bytes of the search's code, which a reader's browser fetches on the first search, gzip-compressed. */
  searchCodeBytes: number;
}

/** The origin pages are read under: the site's own is unknown, and the widget puts it back (see `StaticPreviews`). */
const SITE_ORIGIN = 'https://doclens.invalid/';

/** Each version's data folder, below the output folder. */
const dataFolder = (version: SiteVersion): string => `data/${version.path}`;

/**
 * The projects and versions, as the widget reads them; `root`: the site's root URL relative to the
 * files; `titles`: each version folder's pages' `<title>`s, which name a project no manifest names.
 */
function siteFile(site: StaticSite, root: string, titles: ReadonlyMap<string, string[]>): StaticSiteFile {
  const pathOf = new Map(site.versions.map((entry) => [entry.version, entry]));
  const projectEntry = (project: Project): StaticProject => {
    const listed = project.versions.filter((version) => pathOf.has(version)).sort(compareVersions);
    const stable = listed.find((version) => version.slug === 'stable') ?? listed.find((version) => version.slug === project.defaultVersion);
    const release = stable && { slug: stable.slug, release: stable.ref ?? stable.slug };
    const main = listed.find((version) => version.slug === project.defaultVersion) ?? listed[0];
    const named = site.named ? undefined : main && siteNameOf(titles.get(pathOf.get(main)!.path) ?? []);
    return {
      slug: project.slug,
      name: named ?? project.name,
      language: { code: project.language, name: project.language },
      default_version: project.defaultVersion,
      translation_of: project.translationOf?.slug ?? null,
      versions: listed.map(
        (version): StaticVersion => ({
          slug: version.slug,
          verbose_name: version.verboseName,
          type: version.type,
          status: versionStatus(version, release ?? null),
          release: version === stable ? (release?.release ?? null) : null,
          downloads: version.downloads,
          path: pathOf.get(version)!.path,
          data: dataFolder(pathOf.get(version)!),
        }),
      ),
    };
  };
  return {
    format: 1,
    root,
    origin: SITE_ORIGIN,
    projects: site.registry.projects.filter((project) => project.versions.some((version) => pathOf.has(version))).map(projectEntry),
  };
}

/** Files written while the next are made: the disk waits on neither. */
const IO_DEPTH = 16;

/** Writes files a few at a time without waiting for each, each folder made once; counts the bytes. */
class Writer {
  bytes = 0;
  private readonly folders = new Map<string, Promise<unknown>>();
  private pending: Promise<void>[] = [];

  async write(file: string, data: string | Uint8Array): Promise<void> {
    const folder = dirname(file);
    const made = this.folders.get(folder) ?? mkdir(folder, { recursive: true });
    this.folders.set(folder, made);
    this.pending.push(made.then(() => writeFile(file, data)));
    this.bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (this.pending.length >= IO_DEPTH) await this.flush();
  }

  writeJson(file: string, data: unknown): Promise<void> {
    return this.write(file, JSON.stringify(data));
  }

  async flush(): Promise<void> {
    const writing = this.pending;
    this.pending = [];
    await Promise.all(writing);
  }

  /** Once nothing is being written any more (after a failure, before the folder is removed). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending, ...this.folders.values()]);
  }
}

/**
 * Pages queued in the pool ahead of the one the build waits for: enough that the threads keep busy
 * beside a large page, few enough that the outputs waiting their turn stay small.
 */
const PAGES_AHEAD_PER_THREAD = 16;

/**
 * A job on every page in the pool's threads, some pages ahead of the one handed over, each job's input
 * made as a thread starts it: outputs come in the pages' order (the index's sections are numbered in
 * it, whichever thread is faster).
 */
async function* inOrder<K extends PageJobKind, P>(
  threads: PagePool,
  pages: readonly P[],
  kind: K,
  input: (page: P) => PageJobInput<K>,
): AsyncGenerator<[number, P, PageJobOutput<K>]> {
  const ahead = threads.size * PAGES_AHEAD_PER_THREAD;
  const work = (page: P) => {
    const done = threads.run(kind, () => input(page));
    // A failure is the build's, from whichever page it is waiting for.
    done.catch(() => {});
    return done;
  };
  const working = new Map(pages.slice(0, ahead).map((page, index) => [index, work(page)]));
  for (const [index, page] of pages.entries()) {
    const output = await working.get(index)!;
    working.delete(index);
    const next = pages[index + ahead];
    if (next !== undefined) working.set(index + ahead, work(next));
    yield [index, page, output];
  }
}

/**
 * About how long each kind of part of a search index is, in characters: what a search fetches beside
 * what it needs against how many files the build writes. A search fetches the terms part of each of its
 * words (short: 4K, a word's postings and its neighbours'), the sections parts of the sections they hold
 * (a common word's are most of them: long, so in few requests) and the texts of a few dozen sections: of
 * the best for the ranking's phrases, then of those shown (short: 2K, a few sections each; 1K wrote a
 * third more files for a tenth fewer bytes a search): see docs/benchmarks.md.
 */
const SEARCH_PART_SIZES: PartSizes = { terms: 4 * 1024, sections: 128 * 1024, texts: 2 * 1024 };

/** About how much of an index's parts' JSON, in characters, each job of the page threads compresses and writes. */
const SAVE_JOB_CHARS = 256 * 1024;

/**
 * Jobs of saved parts queued per page thread, at most: enough that the main thread makes the next
 * parts while the threads compress these and read pages again, rarely waiting on them.
 */
const SAVE_JOBS_AHEAD_PER_THREAD = 8;

/** The chunk of the widget that searches in the browser (`widget/shared/static-search.ts`). */
const SEARCH_CHUNK = /^doclens-static-search-[\w-]+\.js$/;

/** Copies the widget's code (not its source maps); gives its size, and the search chunk's compressed. */
async function copyWidget(out: string): Promise<{ bytes: number; searchCodeBytes: number }> {
  const dist = packagePath('dist/');
  let bytes = 0;
  let searchCodeBytes = 0;
  for (const name of await readdir(dist)) {
    if (!name.endsWith('.js')) continue;
    const code = await readFile(join(dist, name));
    await writeFile(join(out, name), code);
    bytes += code.length;
    if (SEARCH_CHUNK.test(name)) searchCodeBytes = gzipSync(code).length;
  }
  if (searchCodeBytes === 0) throw new Error(`the widget is not built (${dist} has no search chunk): run "npm run build" first`);
  return { bytes, searchCodeBytes };
}

/**
 * Writes what the widget needs to run on a static site with no server behind it: the projects and
 * versions, each version's pages, the previews of every page and of every target the site links to,
 * and the widget's code. The files are written to a temporary folder beside `out` and take its place
 * only once complete; `inject` then adds the widget's tag to every page.
 */
export async function buildStatic(options: BuildOptions, progress: (state: BuildProgress) => void = () => {}): Promise<BuildSummary> {
  const started = performance.now();
  // The page threads first: they start and load their code while the site is listed.
  const threads = new PagePool();
  try {
    return await buildWith(threads, options, progress, started);
  } finally {
    await threads.close();
  }
}

async function buildWith(
  threads: PagePool,
  options: BuildOptions,
  progress: (state: BuildProgress) => void,
  started: number,
): Promise<BuildSummary> {
  const site = readSite(options.docs, options.manifest);
  const out = resolve(options.out ?? join(site.root, '_doclens'));
  // One version's folder may be listed under two names (`stable` and its release): read once.
  const folders = [...new Map(site.versions.map((entry) => [entry.path, entry])).values()];
  const pages = (
    await Promise.all(folders.map(async (version) => (await listHtml(version.version.root!)).map((file): PageKey => ({ version, file }))))
  ).flat();
  if (pages.length === 0) throw new Error(`${options.docs} has no HTML pages`);

  await mkdir(dirname(out), { recursive: true });
  const temporary = await mkdtemp(join(dirname(out), '.doclens-build-'));
  const writer = new Writer();
  try {
    const versionPaths = site.versions.map((version) => version.path);
    const targets = new LinkTargets(versionPaths);
    const pageUrl = (page: PageKey) => new URL(page.version.path + page.file, SITE_ORIGIN).href;
    let sections = 0;
    // Each version folder's pages' <title>s, by its path.
    const titles = new Map(folders.map((version) => [version.path, [] as string[]]));
    // Pages the site links to that the listing skipped: previewed and tagged, not searched.
    const linked: PageKey[] = [];
    const indexes = new Map(
      await Promise.all(
        folders.map(
          async (version) => [version, { index: new SearchIndex(), pages: new Set(await contentPagesIn(version.version.root!)) }] as const,
        ),
      ),
    );
    // What each page's previews' files hold, by the page's place in `pages`.
    const written: { fragments: string[]; previews: number; bytes: number; parts: number }[] = [];
    const file = (page: PageKey) => join(page.version.version.root!, page.file);
    const previewsAt = (page: PageKey) => join(temporary, dataFolder(page.version), 'previews', page.file);
    // Each page is read once, in order, previewed at the targets that the links read so far (its
    // own among them) point to: a page's table of contents links to most of its targets.
    const read = (page: PageKey): PageJobInput<'page'> => ({
      file: file(page),
      pageUrl: pageUrl(page),
      path: pagePath(page),
      versionPaths,
      fragments: [...targets.of(pagePath(page))],
      indexedAs: indexes.get(page.version)!.pages.has(page.file) ? page.file : undefined,
      previewsAt: previewsAt(page),
    });
    // Where pages forward the reader (see `PageJobOutput<'page'>.forward`), by their `pagePath`.
    const forwards = new Map<string, string>();
    // The pages of `batch`, the last of `pages`.
    const readBatch = async (batch: readonly PageKey[]) => {
      const first = pages.length - batch.length;
      for await (const [at, page, output] of inOrder(threads, batch, 'page', read)) {
        targets.add(output.links);
        if (output.forward !== undefined) {
          forwards.set(pagePath(page), output.forward);
          // The target's preview at the fragment the page forwards to, as at any a link points to.
          if (!output.forward.endsWith('#')) targets.add([output.forward]);
        }
        if (output.split) indexes.get(page.version)!.index.addPage(page.file, output.split);
        if (output.split?.documentTitle) titles.get(page.version.path)!.push(output.split.documentTitle);
        written[first + at] = { fragments: output.fragments, previews: output.previews, bytes: output.bytes, parts: output.parts };
        progress({ phase: 'pages', done: first + at + 1, total: pages.length });
      }
    };
    await readBatch(pages);
    // Then the pages the listing skipped that the links read so far point to, and those their links point to.
    // Never doclens' own files: this build's, nor those of an earlier one written to the default folder.
    const own = [out, temporary, join(site.root, '_doclens')];
    for (;;) {
      const batch = await linkedPages(targets, folders, pages, own);
      if (batch.length === 0) break;
      pages.push(...batch);
      linked.push(...batch);
      await readBatch(batch);
    }
    const landing = landingPages(forwards, new Set(pages.map(pagePath)));
    // Read again: the pages with targets only pages read after them link to, or whose previews'
    // order is not the links' (the files are the same whichever thread read what first), and those
    // that forward to no page of the site after all, which wrote none. Never those that forward.
    const again = pages.flatMap((page, index) => {
      const path = pagePath(page);
      if (landing.has(path)) return [];
      const fragments = [...targets.of(path)];
      const previewed = forwards.has(path) ? undefined : written[index]!.fragments;
      return previewed && fragments.length === previewed.length && fragments.every((fragment, at) => fragment === previewed[at])
        ? []
        : [{ index, page, fragments, previewed }];
    });
    // The largest first, so that the threads end together: each is parsed again, in a time about its size.
    const sizes = new Map(await Promise.all(again.map(async ({ page }) => [page, (await stat(file(page))).size] as const)));
    again.sort((a, b) => sizes.get(b.page)! - sizes.get(a.page)!);
    const rewrite = ({ index, page, fragments, previewed }: (typeof again)[number]): PageJobInput<'previews'> => ({
      file: file(page),
      pageUrl: pageUrl(page),
      fragments,
      previewed,
      previewsAt: previewsAt(page),
      writtenParts: written[index]!.parts,
    });
    const reread = (async () => {
      for await (const [done, { index, fragments }, output] of inOrder(threads, again, 'previews', rewrite)) {
        written[index] = { ...output, fragments };
        progress({ phase: 'previews', done: done + 1, total: again.length });
      }
    })();
    // Awaited below; a failure meanwhile stops the threads, which fails it too.
    reread.catch(() => {});
    // Meanwhile the main thread makes the search indexes' parts, complete since every page was read,
    // and the page threads compress and write them (compressed: the widget uncompresses them,
    // `static-search.ts`, whatever the server sends). Saved as counted: the build never searches
    // them, so they never take their searchable form (`finish`).
    const saving: Promise<number>[] = [];
    // Ahead of the pages read again: the main thread, which makes the next parts, waits on them.
    const save = (folder: string, parts: SavedPart[]) => {
      const done = threads.run('parts', () => ({ folder, parts }), true);
      // A failure is the build's, awaited below.
      done.catch(() => {});
      saving.push(done);
    };
    for (const [version, { index }] of indexes) {
      sections += index.size.sections;
      const folder = join(temporary, dataFolder(version), 'search');
      let batch: SavedPart[] = [];
      let chars = 0;
      for (const part of index.savedParts(SEARCH_PART_SIZES)) {
        batch.push(part);
        chars += part.json.length;
        if (chars < SAVE_JOB_CHARS) continue;
        save(folder, batch);
        [batch, chars] = [[], 0];
        // Some jobs ahead of the threads: a large index's saved form is never held whole. Else the
        // threads' replies are handled meanwhile (and their next jobs handed out), not after the parts.
        if (saving.length >= threads.size * SAVE_JOBS_AHEAD_PER_THREAD) writer.bytes += await saving.shift()!;
        else await setImmediate();
      }
      if (batch.length) save(folder, batch);
    }
    for (const bytes of await Promise.all(saving)) writer.bytes += bytes;
    await reread;
    // The threads stop while the last files are written (`buildStatic` waits for them).
    void threads.close();
    const previews = written.reduce((sum, page) => sum + page.previews, 0);
    writer.bytes += written.reduce((sum, page) => sum + page.bytes, 0);
    for (const version of folders) {
      const own = pages.filter((page) => page.version === version);
      const list: StaticPageList = { pages: own.map((page) => page.file) };
      const forwarding = own.flatMap((page) => {
        const target = landing.get(pagePath(page));
        return target === undefined ? [] : [[page.file, target.slice(version.path.length).replace(/#$/, '')] as const];
      });
      if (forwarding.length) list.forwards = Object.fromEntries(forwarding);
      await writer.writeJson(join(temporary, dataFolder(version), 'pages.json'), list);
    }
    const root = relative(out, site.root).split(sep).join('/');
    await writer.writeJson(join(temporary, 'site.json'), siteFile(site, options.root ?? (root === '' ? './' : `${root}/`), titles));
    await writer.flush();
    const widget = await copyWidget(temporary);
    const bytes = writer.bytes + widget.bytes;
    await replaceFolder(temporary, out);
    const injected = options.inject ? await injectAll(site, out, linked) : 0;
    const seconds = (performance.now() - started) / 1000;
    return { out, pages: pages.length, sections, previews, bytes, seconds, injected, searchCodeBytes: widget.searchCodeBytes };
  } catch (error) {
    // Nothing is being written into the folder any more once it is removed.
    await threads.close();
    await writer.settled();
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}

/** Forwards followed from a page, at most: a site's forwarding pages forward to their pages, not to more forwards. */
const MAX_FORWARDS = 4;

/**
 * Where the pages that forward the reader land (`pagePath#fragment`), chains followed, by the pages'
 * `pagePath`; not those whose forwards end at no page of the site (`known`), loop or go on too long.
 */
function landingPages(forwards: ReadonlyMap<string, string>, known: ReadonlySet<string>): Map<string, string> {
  const landing = new Map<string, string>();
  const pageOf = (target: string) => target.slice(0, target.indexOf('#'));
  for (const [page, first] of forwards) {
    let target = first;
    for (let step = 1; step < MAX_FORWARDS && forwards.has(pageOf(target)); step++) target = forwards.get(pageOf(target))!;
    const lands = pageOf(target);
    if (known.has(lands) && !forwards.has(lands)) landing.set(page, target);
  }
  return landing;
}

/** Whether `path` is `folder` or below it. */
const isInside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder + sep);

/**
 * The pages the site's links point to that are not among `pages` yet, as the listing skips their
 * folders (Sphinx's `_modules/` source pages, which `[source]` links point to): a page the site links to
 * is one of its pages. Only HTML files whose real path, symbolic links followed, is in their version's
 * folder and out of doclens' `own` folders; in the order the links were read.
 */
async function linkedPages(
  targets: LinkTargets,
  folders: readonly SiteVersion[],
  pages: readonly PageKey[],
  own: readonly string[],
): Promise<PageKey[]> {
  const known = new Set(pages.map(pagePath));
  const versionOf = new Map(folders.map((version) => [version.path, version]));
  const real = (path: string) => realpath(path).catch(() => undefined);
  const ownReal = await Promise.all(own.map(async (folder) => (await real(folder)) ?? resolve(folder)));
  const roots = new Map(await Promise.all(folders.map(async (version) => [version, await real(version.version.root!)] as const)));
  const found: PageKey[] = [];
  for (const { folder, file } of targets.pages()) {
    const version = versionOf.get(folder);
    if (!version || !file.endsWith('.html') || known.has(`${folder}${file}`)) continue;
    const root = roots.get(version);
    const path = await real(join(version.version.root!, file));
    if (!root || !path || !isInside(path, root) || ownReal.some((ownFolder) => isInside(path, ownFolder))) continue;
    if ((await stat(path)).isFile()) found.push({ version, file });
  }
  return found;
}

/** Puts a complete folder in place of `out`, whose earlier contents are removed only once the new ones are there. */
async function replaceFolder(complete: string, out: string): Promise<void> {
  const previous = await stat(out).then(
    () => `${complete}-previous`,
    () => undefined,
  );
  if (previous) await rename(out, previous);
  await rename(complete, out);
  if (previous) await rm(previous, { recursive: true, force: true });
}

/** Writes the widget's tag into every page of the site, the `linked` ones the listing skips among them; gives how many pages changed. */
async function injectAll(site: StaticSite, out: string, linked: readonly PageKey[]): Promise<number> {
  let changed = 0;
  const listed = (await listHtml(site.root)).map((file) => join(site.root, file));
  for (const path of new Set([...listed, ...linked.map((page) => join(page.version.version.root!, page.file))])) {
    const html = await readFile(path, 'utf8');
    const tagged = injectTag(html, relative(dirname(path), out));
    if (tagged === html) continue;
    // Each page is replaced whole: a reader (or a failure) never sees half of one.
    await writeFile(`${path}.doclens-tmp`, tagged);
    await rename(`${path}.doclens-tmp`, path);
    changed++;
  }
  return changed;
}
