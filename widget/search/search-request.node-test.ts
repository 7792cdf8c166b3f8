import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchResponse } from '../../contract/index.ts';
import { proxySource } from '../shared/api.ts';
import { SearchRequestController, type SearchParameters } from './search-request.ts';

interface SearchServer {
  server: Server;
  url: string;
  queries: string[];
  /** Resolves once the client has given up the request for `query` (`q|page`) that was never answered. */
  abandoned(query: string): Promise<void>;
}

/**
 * A search endpoint: one result per page named after the query, `broken` a 500, `partial` marked as
 * still indexing the first time, `slow` never answered: the client can only give it up.
 */
function startSearchServer(): Promise<SearchServer> {
  const queries: string[] = [];
  const partialAsked = new Set<string>();
  const abandoned = new Map<string, Promise<void>>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const q = url.searchParams.get('q') ?? '';
    const page = Number(url.searchParams.get('page'));
    queries.push(`${q}|${page}`);
    if (q.includes('slow')) {
      abandoned.set(`${q}|${page}`, new Promise((resolve) => response.once('close', () => resolve())));
      return;
    }
    if (q.includes('broken')) {
      response
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'upstream_error', message: 'broken' } }));
      return;
    }
    const indexing = q.includes('partial') && !partialAsked.has(q);
    if (q.includes('partial')) partialAsked.add(q);
    const answer = {
      count: q.includes('nothing') ? 0 : 2,
      next: page === 1 && !q.includes('nothing') ? `${url.origin}/api/v3/search/?page=2` : null,
      previous: null,
      projects: [],
      query: q,
      results: q.includes('nothing')
        ? []
        : [
            {
              type: 'page',
              project: { slug: 'aurora', alias: null },
              version: { slug: 'latest' },
              title: `${q} ${page}${indexing ? ' so far' : ''}`,
              domain: 'http://docs.test',
              path: `/p${page}.html`,
              highlights: { title: [] },
              blocks: [],
            },
          ],
      indexing,
    } satisfies SearchResponse;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        queries,
        abandoned: (query) => abandoned.get(query) ?? Promise.reject(new Error(`${query} was never asked`)),
      }),
    ),
  );
}

/** The least a controller needs of its element: it is told to render again. */
class Host implements ReactiveControllerHost {
  updates = 0;
  readonly updateComplete = Promise.resolve(true);
  addController(_controller: ReactiveController): void {}
  removeController(_controller: ReactiveController): void {}
  requestUpdate(): void {
    this.updates++;
  }
}

/** Waits for the controller (or the server) to get where `check` says. */
function until(check: () => boolean, message: string): Promise<void> {
  return vi.waitFor(
    () => {
      if (!check()) throw new Error(`still waiting for ${message}`);
    },
    { timeout: 5000 },
  );
}

describe('SearchRequestController', () => {
  let search: Awaited<ReturnType<typeof startSearchServer>>;
  beforeAll(async () => {
    search = await startSearchServer();
  });
  afterAll(() => {
    const closed = new Promise<void>((resolve) => search.server.close(() => resolve()));
    search.server.closeAllConnections();
    return closed;
  });

  function controller(words: () => string, overrides: Partial<SearchParameters> = {}) {
    let replaced = 0;
    const parameters = () => ({
      source: proxySource(search.url),
      words: words(),
      scope: { includeSubprojects: true },
      pageSize: 10,
      debounce: 30,
      minLength: 2,
      ...overrides,
    });
    const request = new SearchRequestController(new Host(), parameters, () => replaced++);
    return { request, replacedCount: () => replaced };
  }
  const titles = (request: SearchRequestController) => request.results.map((result) => result.title);

  it('makes one request for a burst of typing, with the scope before the words', async () => {
    let words = '';
    const { request, replacedCount } = controller(() => words, {
      scope: { project: 'aurora', version: 'latest', includeSubprojects: false },
    });
    const asked = search.queries.length;
    for (const typed of ['re', 'ret', 'retr', 'retry']) {
      words = typed;
      request.schedule();
    }
    expect(request.status).toBe('loading');
    await until(() => request.status === 'results', 'results');
    expect(search.queries.slice(asked)).toEqual(['project:aurora/latest retry|1']);
    expect(titles(request)).toEqual(['project:aurora/latest retry 1']);
    expect(request.count).toBe(2);
    expect(replacedCount()).toBe(1);
  });

  it('never lets a slow answer overwrite a later one', async () => {
    let words = 'slow query';
    const { request } = controller(() => words);
    request.schedule();
    await until(() => search.queries.includes('slow query|1'), 'the slow request');
    words = 'fast query';
    request.schedule();
    await until(() => request.status === 'results', 'results');
    // The slow request is given up: its answer can never arrive.
    await search.abandoned('slow query|1');
    expect(titles(request)).toEqual(['fast query 1']);
  });

  it('answers words it has answered before at once, without asking again', async () => {
    let words = 'lease';
    const { request } = controller(() => words);
    request.schedule();
    await until(() => request.status === 'results', 'results');
    words = 'lease time';
    request.schedule();
    await until(() => titles(request)[0] === 'lease time 1', 'the longer query');
    const asked = search.queries.length;
    words = 'lease';
    request.schedule();
    expect(request.status).toBe('results');
    expect(titles(request)).toEqual(['lease 1']);
    expect(search.queries.length).toBe(asked);
  });

  it('goes back to idle below the shortest query, dropping the results and any answer still coming', async () => {
    let words = 'slow pool';
    const { request, replacedCount } = controller(() => words);
    request.schedule();
    await until(() => search.queries.includes('slow pool|1'), 'the request');
    words = 'p';
    request.schedule();
    expect(request.status).toBe('idle');
    expect(request.results).toEqual([]);
    expect(replacedCount()).toBe(1);
    await search.abandoned('slow pool|1');
    expect(request.status).toBe('idle');
  });

  it('adds further pages to the results and offers none after the last', async () => {
    const { request, replacedCount } = controller(() => 'pages');
    request.schedule();
    await until(() => request.status === 'results', 'results');
    expect(request.nextPage).toBe(2);
    request.more();
    expect(request.loadingMore).toBe(true);
    await until(() => !request.loadingMore, 'the second page');
    expect(titles(request)).toEqual(['pages 1', 'pages 2']);
    expect(request.nextPage).toBe(null);
    expect(replacedCount()).toBe(1);
  });

  it('shows partial answers marked as indexing, asks again, and keeps only the complete one', async () => {
    let words = 'partial index';
    const { request } = controller(() => words);
    request.schedule();
    await until(() => request.indexing, 'the partial answer');
    expect(titles(request)).toEqual(['partial index 1 so far']);
    await until(() => !request.indexing, 'the complete answer');
    expect(titles(request)).toEqual(['partial index 1']);
    words = 'elsewhere';
    request.schedule();
    await until(() => titles(request)[0] === 'elsewhere 1', 'another query');
    words = 'partial index';
    request.schedule();
    expect(titles(request)).toEqual(['partial index 1']);
  });

  it('says when nothing matched, when the service failed, and asks again on retry', async () => {
    let words = 'nothing here';
    const { request } = controller(() => words);
    request.schedule();
    await until(() => request.status === 'empty', 'the empty answer');
    words = 'broken search';
    request.schedule();
    await until(() => request.status === 'error', 'the error');
    const asked = search.queries.length;
    request.retry();
    expect(request.status).toBe('loading');
    await until(() => request.status === 'error', 'the error again');
    expect(search.queries.length).toBe(asked + 1);
  });

  it('stops the request under way when cancelled', async () => {
    const { request } = controller(() => 'slow cancelled');
    request.schedule();
    await until(() => search.queries.includes('slow cancelled|1'), 'the request');
    request.cancel();
    await search.abandoned('slow cancelled|1');
    expect(request.results).toEqual([]);
    expect(request.status).toBe('loading');
  });
});
