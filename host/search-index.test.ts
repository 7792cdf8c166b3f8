import { describe, expect, it } from 'vitest';
import { demoPage } from '../test/fixtures/demo.ts';
import MiniSearch from 'minisearch';
import { ENGINE_OPTIONS, highlight, highlightExcerpts, VersionIndex } from './search-index.ts';

function demoIndex(index = new VersionIndex()): VersionIndex {
  for (const page of [
    'index.html',
    'quickstart.html',
    'glossary.html',
    'faq.html',
    'api/scheduler.html',
    'api/jobs.html',
    'guides/configuration.html',
    'tutorial/retries.html',
    'guides/deployment.html',
  ]) {
    index.addPage(page, demoPage(`aurora/en/latest/${page}`));
  }
  return index;
}

describe('VersionIndex', () => {
  const index = demoIndex();

  it('ranks the page about a term first', () => {
    expect(index.search('retry policy')[0]!.path).toBe('tutorial/retries.html');
    expect(index.search('lease timeout')[0]!.sections[0]!.section.anchor).toBe('confval-lease_timeout');
  });

  it('matches the start of a word while the reader types', () => {
    const hits = index.search('misfi');
    expect(hits.map((hit) => hit.path)).toContain('glossary.html');
    expect([...hits[0]!.matchedWords].some((word) => word.startsWith('misfir'))).toBe(true);
  });

  it('tolerates one typo', () => {
    expect(index.search('sheduler').length).toBeGreaterThan(0);
    expect(index.search('jiter')[0]!.path).toBe('tutorial/retries.html');
  });

  it('lets any word match, the sections with more of the words first', () => {
    const both = index.search('jitter backoff');
    expect(both[0]!.matchedWords.has('jitter') && both[0]!.matchedWords.has('backoff')).toBe(true);
    expect(index.search('jitter zzzqqq')[0]!.path).toBe(index.search('jitter')[0]!.path);
    expect(index.search('zzzqqq')).toEqual([]);
  });

  it('returns nothing for a query with no words', () => {
    expect(index.search('  ?! ')).toEqual([]);
  });

  it('indexes generated indexes and hubs by their headings only; a page without a heading is its <title> less the site name', () => {
    const site = new VersionIndex();
    const entries = Array.from({ length: 30 }, (_, n) => `<li><a href="p${n}.html">entry number ${n} of the index</a></li>`).join('');
    site.addPage(
      'genindex.html',
      `<html><head><title>Index — Tool docs</title></head><body><div role="main"><h1>Index</h1><ul>${entries}</ul></div></body></html>`,
    );
    site.addPage(
      'notes.html',
      '<html><head><title>Release notes — Tool docs</title></head>' +
        '<body><div role="main"><p>Quokka support was added.</p></div></body></html>',
    );
    expect(site.size.pages).toBe(2);
    expect(site.search('quokka')[0]!.title).toBe('Release notes');
    expect(site.search('entry number')).toEqual([]);
    expect(site.search('index')[0]!.path).toBe('genindex.html');
  });

  it('builds the same engine as MiniSearch adding the sections itself', () => {
    const byMiniSearch = demoIndex(new VersionIndex(new MiniSearch(ENGINE_OPTIONS)));
    // The order of terms is the only difference: MiniSearch lists them from its search tree.
    const engineOf = (built: VersionIndex) => {
      const { engine } = built.toJSON();
      return { ...engine, index: engine.index.sort(([a], [b]) => (a < b ? -1 : 1)) };
    };
    expect(engineOf(index)).toEqual(engineOf(byMiniSearch));
  });

  it('searches what was added between searches, as a MiniSearch adding every page would', () => {
    const growing = new VersionIndex();
    const byMiniSearch = new VersionIndex(new MiniSearch(ENGINE_OPTIONS));
    for (const page of ['glossary.html', 'tutorial/retries.html', 'faq.html']) {
      for (const built of [growing, byMiniSearch]) built.addPage(page, demoPage(`aurora/en/latest/${page}`));
      for (const query of ['retry', 'lease', 'jiter'])
        expect(growing.search(query), `${query} after ${page}`).toEqual(byMiniSearch.search(query));
    }
  });

  it('answers the same once saved and loaded again (the index cache, the index threads)', async () => {
    const loaded = await VersionIndex.fromJSON(JSON.stringify(index));
    expect(loaded.size).toEqual(index.size);
    expect(loaded.pageTitles()).toEqual(index.pageTitles());
    for (const query of ['retry policy', 'misfi', 'sheduler', 'lease timeout', 'jitter zzzqqq']) {
      const summary = (hits: ReturnType<VersionIndex['search']>) =>
        hits.map((hit) => [hit.path, hit.title, hit.sections.map((section) => section.section.anchor)]);
      expect(summary(loaded.search(query)), query).toEqual(summary(index.search(query)));
    }
  });

  it('saves, when it is finished, the index JSON.stringify saves, and answers the same after', async () => {
    const finished = demoIndex();
    const json = finished.finish({ save: true }).join('');
    const sortedTerms = (saved: string) => {
      const parsed = JSON.parse(saved) as ReturnType<VersionIndex['toJSON']>;
      return { ...parsed, engine: { ...parsed.engine, index: parsed.engine.index.sort(([a], [b]) => (a < b ? -1 : 1)) } };
    };
    expect(sortedTerms(json)).toEqual(sortedTerms(JSON.stringify(demoIndex())));
    // Pages added once it is finished (a page rebuilt) go to the engine it searches.
    finished.addPage('notes.html', '<html><body><div role="main"><h1>Notes</h1><p>Quokkas.</p></div></body></html>');
    expect(finished.search('quokkas').map((hit) => hit.path)).toEqual(['notes.html']);
    const loaded = await VersionIndex.fromJSON(json);
    for (const query of ['retry policy', 'lease timeout', 'misfi'])
      expect(
        loaded.search(query).map((hit) => hit.path),
        query,
      ).toEqual(index.search(query).map((hit) => hit.path));
  });

  it('saves its index as JSON.stringify does when searched before it was finished (its engine made then)', () => {
    const searched = demoIndex();
    searched.search('lease');
    expect(JSON.parse(searched.finish({ save: true }).join(''))).toEqual(JSON.parse(JSON.stringify(searched)));
  });

  it('groups sections by page, at most three each', () => {
    for (const hit of index.search('job')) {
      expect(hit.sections.length).toBeLessThanOrEqual(3);
      expect(new Set(hit.sections.map((section) => section.section.path))).toEqual(new Set([hit.path]));
    }
  });
});

/** A page of a Sphinx-like site: a heading, prose, and documented objects (`dl.py.method`, anchored by full name). */
function sphinxPage(title: string, prose: string, objects: { name: string; type?: string; text: string }[] = []): string {
  const entries = objects
    .map(
      ({ name, type = 'method', text }) =>
        `<dl class="py ${type}"><dt class="sig sig-object py" id="${name}">${name.split('.').at(-1)}(value)</dt>` +
        `<dd><p>${text}</p></dd></dl>`,
    )
    .join('');
  return (
    `<html><head><title>${title} — Kit docs</title></head><body><div role="main"><section id="top">` +
    `<h1>${title}</h1><p>${prose}</p>${entries}</section></div></body></html>`
  );
}

describe('VersionIndex ranking rules', () => {
  const site = new VersionIndex();
  const pages: [string, string][] = [
    ['supported.html', sphinxPage('Supported versions', 'Kit runs on Python 3.9 and later, on Linux, macOS and Windows.')],
    ['faq.html', sphinxPage('Questions', 'Which features are there? How do you do things? Which of them are new? Are they fast?')],
    [
      'api/frame.fillna.html',
      sphinxPage('kit.Frame.fillna', 'Fill missing values.', [{ name: 'kit.Frame.fillna', text: 'Fill missing values of a Frame.' }]),
    ],
    [
      'api/column.fillna.html',
      sphinxPage('kit.Column.fillna', 'Fill missing values.', [{ name: 'kit.Column.fillna', text: 'Fill missing values of a Column.' }]),
    ],
    [
      'guide/frames.html',
      sphinxPage(
        'Working with frames',
        'A Frame holds columns. Build a Frame from rows; a Frame can be merged with another Frame. Missing values: fillna.',
      ),
    ],
    ['guide/missing.html', sphinxPage('Missing values', 'Call fillna on a Frame to fill missing values, and merge frames after.')],
    [
      'checks.html',
      sphinxPage('Health checks', 'Checks that warn about slow tests.', [
        { name: 'kit.Check.too_slow', type: 'attribute', text: 'The test is too slow: its data takes long to generate.' },
        { name: 'kit.Check.too_large', type: 'attribute', text: 'The data is too large.' },
      ]),
    ],
    ['slow.html', sphinxPage('Slow tests', 'Why tests are slow and what to check: too many examples, slow data.')],
    ['changelog.html', sphinxPage('Changelog', 'Version 2.1: merging frames is faster. Version 2.0: frames merge on keys.')],
    ['guide/merging.html', sphinxPage('Merging frames', 'Merge two frames on their keys, as a database joins tables.')],
    [
      'guide/index.html',
      `<html><body><div role="main"><h1>User guide</h1><ul>${['frames', 'missing', 'merging']
        .map((name) => `<li><a href="${name}.html">${name} guide page</a></li>`)
        .join('')}</ul></div></body></html>`,
    ],
  ];
  for (const [path, html] of pages) site.addPage(path, html);
  const first = (query: string) => site.search(query)[0]?.path;

  it('reads questions: stop words aside, word forms by their stem', () => {
    expect(first('which python versions are supported')).toBe('supported.html');
  });

  it('finds a documented name whole, dotted or in words, before the pages that only mention it', () => {
    for (const query of ['too_slow', 'Check.too_slow', 'Check too_slow', 'kit.Check.too_slow']) {
      expect(first(query), query).toBe('checks.html');
      expect(site.search(query)[0]!.sections[0]!.section.anchor, query).toBe('kit.Check.too_slow');
    }
  });

  it('puts the name on the object the site talks about most above its namesakes', () => {
    expect(
      site
        .search('fillna')
        .map((hit) => hit.path)
        .slice(0, 2),
    ).toEqual(['api/frame.fillna.html', 'api/column.fillna.html']);
    expect(first('Column.fillna')).toBe('api/column.fillna.html');
  });

  it('ranks release notes below guides unless the query names a version', () => {
    expect(first('merging frames')).toBe('guide/merging.html');
    expect(first('merging frames 2.1')).toBe('changelog.html');
  });

  it('reads a word cut short as the start of the words its stem begins ("equivalenc…" of "equivalencies")', () => {
    const units = new VersionIndex();
    units.addPage('equivalencies.html', sphinxPage('Equivalencies', 'Equivalencies convert between units that are not the same.'));
    units.addPage('units.html', sphinxPage('Units', 'Units of measurement, their names and prefixes.'));
    expect(units.search('equivalenc')[0]?.path).toBe('equivalencies.html');
  });

  it('reads a typo as its nearest spelling, swapped letters one edit, each word counted once', () => {
    const typos = new VersionIndex();
    typos.addPage('retries.html', sphinxPage('Retries', 'Failed calls are tried again after a pause.'));
    // Words two edits from "retir", the stem of "retires": together they must not outweigh the one word one edit away.
    typos.addPage('values.html', sphinxPage('Values', 'What a call returns: the return value, retro rules, a retina.'));
    expect(typos.search('retires').map((hit) => hit.path)).toEqual(['retries.html']);
  });

  it('ranks the page about a word above a long reference page that mentions it in a few of its entries', () => {
    const reference = new VersionIndex();
    const entries = Array.from({ length: 40 }, (_, n) => ({ name: `kit.Part${n}.run`, text: `Runs part ${n} of the application.` }));
    entries[7] = { name: 'kit.App.register_blueprint', text: 'Registers a blueprint.' };
    reference.addPage('api.html', sphinxPage('API', 'Every class and function of Kit.', entries));
    const guide = (heading: string, text: string) => `<section id="${heading.toLowerCase()}"><h2>${heading}</h2><p>${text}</p></section>`;
    reference.addPage(
      'blueprints.html',
      '<html><body><div role="main"><section id="top"><h1>Modular applications with blueprints</h1>' +
        '<p>An application made of parts, each a blueprint with its views, templates and static files, registered on the ' +
        'application at start, so that parts written apart come together in one place when the application starts up.</p>' +
        guide(
          'Why',
          'Parts of an application that grow apart stay apart: one part for the shop, one for the admin pages, one for the blog.',
        ) +
        guide('Nesting', 'A blueprint can hold another one; the views of the inner part then live under the prefixes of both parts.') +
        '</section></div></body></html>',
    );
    expect(reference.search('blueprint')[0]?.path).toBe('blueprints.html');
  });

  it('ranks a page that answers each word in a section of its own above one section that names them all in passing', () => {
    const canvas = new VersionIndex();
    const section = (heading: string, text: string) => `<section id="${heading.toLowerCase()}"><h2>${heading}</h2><p>${text}</p></section>`;
    canvas.addPage(
      'canvas.html',
      '<html><body><div role="main"><section id="top"><h1>Designing work-flows</h1><p>Signatures and primitives.</p>' +
        section('Chains', 'A chain links work together: each step runs after the one before it, passing its result on to the next step.') +
        section('Groups', 'A group runs several steps in parallel and gathers their results in order, once every one of them is done.') +
        '</section></div></body></html>',
    );
    canvas.addPage('calling.html', sphinxPage('Calling', 'Options of a call.', [{ name: 'kit.App.send', text: 'Tasks: chain, group.' }]));
    expect(canvas.search('chains and groups of tasks')[0]?.path).toBe('canvas.html');
  });

  it('reads numbered headings ("5.1.3. List Comprehensions") as a book\'s sections, not as versions of release notes', () => {
    const book = new VersionIndex();
    const section = (heading: string, text: string) => `<section><h2 id="${heading.length}">${heading}</h2><p>${text}</p></section>`;
    book.addPage(
      'tutorial/data.html',
      '<html><body><div role="main"><section id="top"><h1>5. Data Structures</h1><p>Lists, sets and dictionaries.</p>' +
        section('5.1. More on Lists', 'Methods of lists.') +
        section('5.1.3. List Comprehensions', 'A concise way to make lists from other sequences.') +
        section('5.2. Sets', 'Unordered collections without duplicates.') +
        section('5.3. Dictionaries', 'Mappings of keys to values.') +
        '</section></div></body></html>',
    );
    book.addPage(
      'howto/functional.html',
      sphinxPage(
        'Generator expressions and list comprehensions',
        'Two ways of working on every element of a sequence: list comprehensions make a list, generator expressions an iterator.',
      ),
    );
    expect(book.search('list comprehensions')[0]?.path).toBe('tutorial/data.html');
  });

  it('ranks a guide headed by a lone word above a member of a class that has the name, and lifts no entry that documents nothing', () => {
    const flow = new VersionIndex();
    flow.addPage(
      'canvas.html',
      sphinxPage('Chords', 'A chord is a group of tasks with a callback that runs once all of them are done, with their results.'),
    );
    flow.addPage(
      'api.html',
      sphinxPage('API', 'Classes of Kit.', [
        { name: 'kit.Request.chord', type: 'property', text: 'The chord this request is part of, if any.' },
        { name: 'kit.chord', type: 'attribute', text: 'alias of _chord' },
      ]),
    );
    expect(flow.search('chord')[0]?.path).toBe('canvas.html');
    expect(flow.search('Request.chord')[0]?.sections[0]?.section.anchor).toBe('kit.Request.chord');
  });

  it('reads a name being typed as the start of the names it begins ("too_sl")', () => {
    expect(first('too_sl')).toBe('checks.html');
    expect(site.search('too_sl')[0]!.sections[0]!.section.anchor).toBe('kit.Check.too_slow');
  });

  it('finds a hub page by its heading', () => {
    expect(first('user guide')).toBe('guide/index.html');
  });
});

describe('highlight', () => {
  it('wraps matched words in <span> and escapes everything else', () => {
    // Matched terms are stems: every form of the word is highlighted.
    expect(highlight('Use <b>Lease</b> & "leases"', new Set(['leas']))).toBe(
      'Use &lt;b&gt;<span>Lease</span>&lt;/b&gt; &amp; &quot;<span>leases</span>&quot;',
    );
  });

  it('cuts excerpts around the matches', () => {
    const text = `${'filler '.repeat(60)}the lease expires ${'filler '.repeat(60)}`;
    const [excerpt] = highlightExcerpts(text, new Set(['leas']));
    expect(excerpt).toContain('<span>lease</span>');
    expect(excerpt!.length).toBeLessThan(200);
  });
});
