import { describe, expect, it } from 'vitest';
import { ProxyError } from '../http/errors.ts';
import { FetchedPages } from './pages.ts';

const PAGE = 'https://other-docs.example.org/guide.html';
const outage = (error: unknown) => error instanceof ProxyError && error.status >= 500;

/** Pages fetched from one domain whose rate limit the test opens and closes, on a clock it moves. */
function pagesOn() {
  let time = 1_000_000;
  let refusing = false;
  let fetches = 0;
  const fetcher = {
    fetch: async () => ({
      status: 200,
      url: PAGE,
      contentType: 'text/html',
      chunks: [Buffer.from(`<p>copy ${++fetches}</p>`)],
      release: () => undefined,
    }),
  };
  const limiter = { take: () => (refusing ? 30 : 0), bytes: 0 };
  const freshness = { ttl: 60, staleWhileRevalidate: 0, staleIfError: 3600 };
  const pages = new FetchedPages(
    fetcher,
    () => true,
    limiter,
    1024 * 1024,
    freshness,
    outage,
    () => time,
  );
  return {
    read: () => pages.extract(PAGE, async (html) => html.toString()),
    advance: (seconds: number) => {
      time += seconds * 1000;
    },
    refuse: () => {
      refusing = true;
    },
  };
}

describe('FetchedPages', () => {
  it('fetches a page once while it is fresh, and again once it is not', async () => {
    const pages = pagesOn();
    expect(await pages.read()).toBe('<p>copy 1</p>');
    expect(await pages.read()).toBe('<p>copy 1</p>');
    pages.advance(61);
    expect(await pages.read()).toBe('<p>copy 2</p>');
  });

  it("answers with its old copy while the domain's rate limit refuses to fetch the page again", async () => {
    const pages = pagesOn();
    expect(await pages.read()).toBe('<p>copy 1</p>');
    pages.advance(61);
    pages.refuse();
    expect(await pages.read()).toBe('<p>copy 1</p>');
    pages.advance(3600);
    await expect(pages.read()).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
  });
});
