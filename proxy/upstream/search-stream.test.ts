import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../contract/index.ts';
import type { SearchAnswer, SearchReading } from './api.ts';
import { readSearch } from './read-search.ts';
import { SearchStream } from './search-stream.ts';

/** The body read by a stream, in chunks cut at `cuts`, as one answer. */
function streamed(text: string, reading: SearchReading, cuts: number[]): SearchAnswer {
  const bytes = Buffer.from(text);
  const results: SearchResult[] = [];
  const stream = new SearchStream(reading, (result) => results.push(result));
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    stream.write(bytes.subarray(start, cut));
    start = cut;
  }
  return { ...stream.end(), results };
}

const outcome = (read: () => SearchAnswer) => {
  try {
    return read();
  } catch (error) {
    return { error: (error as Error).message };
  }
};

const V3 = { version: 'v3' } as const;
const result = (slug: string, title: string) => ({
  project: { slug, alias: null },
  version: { slug: 'latest' },
  title,
  path: '/a.html',
  blocks: [{ type: 'section', id: 's', title: 'S', content: 'c', highlights: { title: [], content: ['<span>c</span>'] } }],
});

describe('SearchStream', () => {
  it('reads an answer cut anywhere as a parse of the whole body does: escapes, keys in any order, text of any script', () => {
    const text = JSON.stringify({
      query: 'q "quoted" \\ back, ending in a backslash \\',
      'k\\"': 1,
      'runs of backslashes \\\\" before quotes \\"': 'x\\\\\\"y\\\\',
      results: [result('aurora', 'A "title" \\ with [brackets], {braces}: and ünïcödé ✓'), result('b', 'x'.repeat(40)), 7, null],
      projects: [{ slug: 'aurora', versions: [{ slug: 'latest' }] }],
      count: 9,
      next: 'https://upstream/next',
      'res\u0075lts-like': [1, 2],
    }).replace('"count"', '\n "count" ');
    const whole = readSearch(Buffer.from(text), V3);
    for (let cut = 0; cut <= Buffer.byteLength(text); cut++) expect(streamed(text, V3, [cut])).toEqual(whole);
    // Every byte a chunk of its own.
    expect(streamed(text, V3, [...Array(Buffer.byteLength(text)).keys()])).toEqual(whole);
  });

  it('reads a v2 answer, and one with an empty list of results', () => {
    const v2 = JSON.stringify({ count: 1, results: [{ project: 'aurora', version: 'latest', title: 'T', project_alias: 'au' }] });
    const reading = { version: 'v2', query: 'retry' } as const;
    expect(streamed(v2, reading, [10])).toEqual(readSearch(Buffer.from(v2), reading));
    const empty = '{"count": 0, "results": [ ], "next": null}';
    expect(streamed(empty, V3, [14])).toEqual(readSearch(Buffer.from(empty), V3));
  });

  it('refuses what a parse of the whole body refuses, with the same error', () => {
    const bodies = [
      '{"results": [',
      '{"results": [1,]}',
      '{"results": [,1]}',
      '{"results": [1,,2]}',
      '{"results": [{"a": 1} {"b": 2}]}',
      '{"results": [}]}',
      '{"results": [] ',
      '{"results": []}}',
      '{"results": []} x',
      '[{"results": []}]',
      '{"results": "none"}',
      '{"count": 1}',
      '{"count": 3, "results": [{}, {}, {}, {}]}',
      '"text"',
      '',
    ];
    for (const body of bodies) {
      const whole = outcome(() => readSearch(Buffer.from(body), V3));
      expect(whole).toHaveProperty('error');
      expect(outcome(() => streamed(body, V3, [Math.floor(body.length / 2)]))).toEqual(whole);
    }
  });
});
