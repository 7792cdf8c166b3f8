import { describe, expect, it } from 'vitest';
import { readersWords } from '../../search/index.ts';
import { readSearch } from '../upstream/read-search.ts';
import { rehighlighted } from './highlights.ts';
import { searchResponse } from './search-response.ts';

/**
 * An answer of the hosting service's Search API v3 (hosting-api.md 2.11) to "how do I drain events", as it marks it:
 * every word of the query, stop words included, and a dotted name whole.
 */
const upstream = {
  count: 1,
  next: null,
  previous: null,
  projects: [{ slug: 'kombu', versions: [{ slug: 'latest' }] }],
  query: 'how do I drain events',
  results: [
    {
      type: 'page',
      project: { slug: 'kombu', alias: null },
      version: { slug: 'latest' },
      title: 'Connections and transports',
      domain: 'https://kombu.docs.example',
      path: '/en/latest/userguide/connections.html',
      highlights: { title: [] },
      blocks: [
        {
          type: 'domain',
          role: 'py:method',
          name: 'kombu.connection.Connection.drain_events',
          id: 'kombu.connection.Connection.drain_events',
          content: 'Wait for a single event from the server.',
          highlights: {
            name: ['<span>kombu.connection.Connection.drain_events</span>'],
            content: ['<span>How</span> <span>do</span> <span>I</span> wait? <span>Drain</span> the <span>events</span> &lt;here&gt;.'],
          },
        },
        {
          type: 'section',
          id: 'draining',
          title: 'Draining events',
          content: 'Call drain_events in a loop.',
          highlights: { title: ['<span>Draining</span> <span>events</span>'], content: [] },
        },
      ],
    },
  ],
};

describe('upstream search highlights', () => {
  it("mark only the reader's words and the part of a name the search matched, as doclens' own answers do", () => {
    const asked = { words: 'project:kombu how do I drain events', page: 1, pageSize: 50, base: 'http://proxy.example' };
    const answer = searchResponse(readSearch(Buffer.from(JSON.stringify(upstream)), { version: 'v3' }), new Set(['kombu']), asked);
    const [domain, section] = answer.results[0]!.blocks;
    expect(domain!.highlights.name).toEqual(['kombu.connection.Connection.<span>drain</span>_<span>events</span>']);
    expect(domain!.highlights.content).toEqual(['How do I wait? <span>Drain</span> the <span>events</span> &lt;here&gt;.']);
    expect(section!.highlights.title).toEqual(['<span>Draining</span> <span>events</span>']);
    expect(answer.results[0]!.highlights.title).toEqual([]);
  });

  it('mark a name the reader named whole in its matched part, and the words the reader is still typing', () => {
    expect(rehighlighted('<span>kombu.connection.Connection.drain_events</span>', readersWords('drain_events'))).toBe(
      'kombu.connection.Connection.<span>drain_events</span>',
    );
    expect(rehighlighted('The <span>configuration</span> of <span>the</span> worker', readersWords('the conf'))).toBe(
      'The <span>configuration</span> of the worker',
    );
    // A misspelling, as the upstream's fuzzy matching finds it.
    expect(rehighlighted('How many <span>retries</span>', readersWords('retires'))).toBe('How many <span>retries</span>');
    // One whose stem the slip changed: "authenticaton" is its own stem, "authentication"'s is "authent".
    expect(rehighlighted('<span>Authentication</span> Examples', readersWords('kerberos authenticaton'))).toBe(
      '<span>Authentication</span> Examples',
    );
  });

  it("keep nothing of the upstream's markup but its text, escaped", () => {
    const hostile = '<span onclick="steal()">drain</span> <img src=x onerror=steal()><script>steal()</script> &amp; <b>events</b>';
    expect(rehighlighted(hostile, readersWords('drain events'))).toBe('<span>drain</span> steal() &amp; <span>events</span>');
  });
});
