import type { SearchResult } from '../../contract/index.ts';
import { SearchIndex } from '../../search/index.ts';
import { pageUrlPath, resultBlocks, titleHighlights } from '../../search/results.ts';

/** What a version's results say of where they are: its project and version, and the URL of its folder. */
export interface SearchedVersion {
  project: string;
  version: string;
  folder: URL;
}

/** The first bytes of gzip's format. */
const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The text of an index part, which the build writes gzip-compressed (a quarter of its size, on any
 * static host); a server that sends it with `Content-Encoding: gzip` has the browser uncompress it already.
 */
async function gunzipped(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  if (bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1]) return new TextDecoder().decode(bytes);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

/**
 * The search of one version in the browser, on the engine the docs host runs: its index is fetched
 * part by part, the parts a query needs (`SearchIndex.partsFor`), each once for the page's life. This
 * module is a chunk of its own, fetched on the first search.
 */
export class VersionSearch {
  private readonly index = new SearchIndex();
  private readonly parts = new Map<string, Promise<void>>();

  constructor(
    private readonly searched: SearchedVersion,
    /** A part's file by its name: its JSON, gzip-compressed. */
    private readonly read: (name: string, signal?: AbortSignal) => Promise<Uint8Array<ArrayBuffer>>,
  ) {}

  private part(name: string, signal?: AbortSignal): Promise<void> {
    let pending = this.parts.get(name);
    if (!pending) {
      pending = this.read(name, signal)
        .then(gunzipped)
        .then((json) => this.index.addPart(json));
      // A failed or abandoned part is fetched again by the next search that needs it.
      pending.catch(() => this.parts.delete(name));
      this.parts.set(name, pending);
    }
    return pending;
  }

  /** How many pages match, and those from `start` to `end` (best first) as results. */
  async search(words: string, start: number, end: number, signal?: AbortSignal): Promise<{ count: number; results: SearchResult[] }> {
    await this.part('head', signal);
    for (let needed = this.index.partsFor(words); needed.length; needed = this.index.partsFor(words))
      await Promise.all(needed.map((name) => this.part(name, signal)));
    const hits = this.index.search(words);
    const shown = hits.slice(start, end);
    // The texts of the sections shown, for their excerpts.
    await Promise.all(
      this.index.textsFor(shown.flatMap((hit) => hit.sections.map(({ section }) => section))).map((name) => this.part(name, signal)),
    );
    const { project, version, folder } = this.searched;
    const results = shown.map((hit): SearchResult => {
      const url = new URL(pageUrlPath(hit.path).split('/').map(encodeURIComponent).join('/'), folder);
      return {
        type: 'page',
        project: { slug: project, alias: null },
        version: { slug: version },
        title: hit.title,
        domain: url.origin,
        path: url.pathname,
        highlights: { title: titleHighlights(hit.title, hit.matchedWords) },
        blocks: resultBlocks(hit),
      };
    });
    return { count: hits.length, results };
  }
}
