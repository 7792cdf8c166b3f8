import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../extraction/html/parse.ts';
import { splitSections } from '../../extraction/sections.ts';
import { distinctRows, halvesOf, relevanceOf } from './metrics.ts';
import { contentWords, documentsNothing, headingOnly, introducesTarget, notFromTarget } from './previews.ts';
import { extraQueriesOf, heldOutOf, queriesOf, SITES } from './sites.ts';

// The real-docs suite's verdicts on a preview: does it carry text beyond its heading, and is that
// text the target page's?
describe('headingOnly', () => {
  it('passes a preview with a sentence, however short', () => {
    expect(headingOnly('Sessions', '<p>Sessions keep state between requests.</p>')).toBeUndefined();
    expect(headingOnly('bolometric_flux', '<p>Bolometric flux.</p>')).toBeUndefined();
    expect(headingOnly('', '<h1>Syndication</h1><p>Django comes with a feed framework.</p>')).toBeUndefined();
  });

  it('fails a preview that repeats its heading or shows a signature alone', () => {
    expect(headingOnly('Request Sessions', '<h2>Request Sessions</h2>')).toBe('heading "Request Sessions" and nothing else');
    expect(headingOnly('Request Sessions', '<p>Request Sessions</p>')).toBe('heading "Request Sessions" and nothing else');
    expect(headingOnly('HttpResponse', '<dt class="sig"><em>class</em> <code>HttpResponse</code><a href="#">[source]</a></dt>')).toBe(
      'heading "HttpResponse" and nothing else',
    );
    expect(headingOnly('', '<h1>SQL Datatype Objects</h1>')).toBe('no title and nothing else');
    expect(headingOnly('Examples', '<p>Example:</p>')).toBe('heading "Examples" then only "Example:"');
  });
});

describe('documentsNothing', () => {
  const fixture = (name: string) => readFileSync(new URL(`../../extraction/structure/fixtures/${name}.html`, import.meta.url), 'utf8');

  it("is said of pandas' Day.n page (a heading, an empty entry, the theme's previous/next links) and its entry", () => {
    const { sections } = splitSections(fixture('pydata-attribute'), 'reference/api/pandas.tseries.offsets.Day.n.html');
    expect(documentsNothing(sections, '')).toBe(true);
    expect(documentsNothing(sections, 'pandas.tseries.offsets.Day.n')).toBe(true);
  });

  it('is not said of a documented entry, its page, nor of a target that is no section of its own', () => {
    const { sections } = splitSections(fixture('pallets-exception'), 'exceptions.html');
    expect(documentsNothing(sections, 'werkzeug.exceptions.NotFound')).toBe(false);
    expect(documentsNothing(sections, '')).toBe(false);
    expect(documentsNothing(sections, 'an-id-inside-a-paragraph')).toBe(false);
  });
});

describe('notFromTarget', () => {
  const page = contentWords(
    parseFragment(
      '<h1 id="agent">Class: Agent</h1><p>Agent extends Dispatcher.</p>' +
        '<p>Agent allows dispatching requests against multiple different origins.</p>' +
        '<h2 id="close">agent.close()</h2><p>Closes the agent and waits for every dispatched request to complete.</p>',
    ),
  );

  it('passes text that stands where the link points, block by block', () => {
    expect(
      notFromTarget('Agent', '<p>Agent allows dispatching requests against multiple different origins.</p>', page, ''),
    ).toBeUndefined();
    // A heading flattened into the first paragraph, and a signature before its description.
    expect(notFromTarget('', '<p>Class: Agent Agent extends Dispatcher</p>', page, 'agent')).toBeUndefined();
    expect(
      notFromTarget('agent.close()', '<p>Closes the agent and waits for every dispatched request.</p>', page, 'close'),
    ).toBeUndefined();
    // A whole page's text starts at its heading, after whatever navigation its main content holds.
    const withNavigation = contentWords(
      parseFragment(`<nav><p>${'Agent BalancedPool Client '.repeat(300)}</p></nav><h1>MockAgent</h1><p>Extends: undici.Dispatcher</p>`),
    );
    expect(notFromTarget('MockAgent', '<p>Extends: undici.Dispatcher</p>', withNavigation, '')).toBeUndefined();
  });

  it('fails text from elsewhere: the navigation, or another part of the page', () => {
    expect(notFromTarget('Agent', '<p>Agent BalancedPool CacheStorage Client Connector</p>', page, '')).toBe(
      'text not from the page\'s main content: "Agent BalancedPool CacheStorage Client Connector"',
    );
    const farAway = contentWords(
      parseFragment(
        `<h1 id="top">Top</h1><p>The introduction of the page.</p><p>${'filler '.repeat(600)}</p><h2 id="end">End</h2><p>The end.</p>`,
      ),
    );
    expect(notFromTarget('End', '<p>The introduction of the page.</p>', farAway, 'end')).toBe(
      'text from another part of the page: "The introduction of the page."',
    );
  });
});

describe('introducesTarget', () => {
  // Celery's command line reference: the usage line, then options that document nothing, far below it.
  const options = Array.from(
    { length: 20 },
    (_, index) => `<dt id="opt-${index}">--option-${index}</dt><dd><p>${'words '.repeat(20)}</p></dd>`,
  );
  const page = contentWords(
    parseFragment(
      `<h1 id="worker">worker</h1><pre>celery worker [OPTIONS]</pre><dl>${options.join('')}<dt id="purge">--purge</dt><dd></dd></dl>`,
    ),
  );

  it('is said of text before the target: the usage line an undocumented option is previewed with', () => {
    const preview = '<dl><dt>--purge</dt><dd><pre>celery worker [OPTIONS]</pre></dd></dl>';
    expect(notFromTarget('--purge', preview, page, 'purge')).toBe('text from another part of the page: "celery worker [OPTIONS]"');
    expect(introducesTarget('--purge', preview, page, 'purge')).toBe(true);
  });

  it('is not said of text after the target, nor of text from outside the main content', () => {
    expect(introducesTarget('worker', '<p>celery worker [OPTIONS]</p>', page, 'worker')).toBe(false);
    expect(introducesTarget('--purge', '<p>Navigation Index Modules</p>', page, 'purge')).toBe(false);
  });
});

describe('halvesOf', () => {
  it("splits every site's queries into a tuning and a held-out half, the same on every run", () => {
    for (const site of SITES) {
      const queries = queriesOf(site);
      const held = heldOutOf(queries);
      expect(held.size, site.slug).toBe(Math.floor(queries.length / 2));
      expect(heldOutOf([...queries].reverse()), site.slug).toEqual(held);
      // A query added moves at most one other between the halves.
      const added = heldOutOf([...queries, { q: 'one more query', page: 'index.html' }]);
      expect([...held].filter((query) => !added.has(query)).length, site.slug).toBeLessThanOrEqual(1);
    }
  });

  it('measures each half on its own queries', () => {
    const queries = ['a', 'b', 'c', 'd'].map((q) => ({ q, page: `${q}.html` }));
    const held = heldOutOf(queries);
    // Held-out queries all found first, tuning ones missed.
    const { tuning, heldOut } = halvesOf(
      relevanceOf(
        queries,
        queries.map((query) => (held.has(query) ? [query.page] : [])),
      ),
    );
    expect(heldOut).toMatchObject({ top3: 1, mrr: 1 });
    expect(heldOut.outcomes.length).toBe(2);
    expect(tuning).toMatchObject({ top3: 0, mrr: 0 });
  });
});

describe('extraQueriesOf', () => {
  it("keeps the extra tuning queries apart from the suite's: none is a suite query, and a site without them has none", () => {
    const withExtra = SITES.filter((site) => extraQueriesOf(site).length);
    expect(withExtra).toEqual(SITES);
    for (const site of withExtra) {
      const suite = new Set(queriesOf(site).map((query) => query.q.toLowerCase()));
      expect(
        extraQueriesOf(site).filter((query) => suite.has(query.q.toLowerCase())),
        site.slug,
      ).toEqual([]);
    }
    expect(extraQueriesOf({ ...SITES[0]!, slug: 'no-such-site' })).toEqual([]);
  });
});

describe('distinctRows', () => {
  // SymPy's pages titled "Matrices": the tutorial's and the reference's, told apart by the places their rows show.
  const titles = new Map([
    ['tutorials/intro-tutorial/matrices.html', 'Matrices'],
    ['modules/matrices/index.html', 'Matrices'],
    ['reference/public/matrices/index.html', 'Matrices'],
    ['modules/solvers/ode.html', 'ODE'],
  ]);

  it('counts a page whose title others share as told apart only by a place no other row with that title has', () => {
    expect(distinctRows(titles)).toBe(0.25);
    const places = new Map([
      ['tutorials/intro-tutorial/matrices.html', 'Tutorials › Introductory Tutorial'],
      ['modules/matrices/index.html', 'API Reference › Matrices'],
    ]);
    expect(distinctRows(titles, places)).toBe(1);
    expect(distinctRows(titles, new Map([['modules/matrices/index.html', 'API Reference']]))).toBe(0.5);
  });
});
