import { describe, expect, it } from 'vitest';
import { splitSections } from '../extraction/sections.ts';
import { demoPage } from '../test/fixtures/demo.ts';
import { highlight, highlightExcerpts, SearchIndex } from './index.ts';
import { resultBlocks } from './results.ts';
import { termsOf } from './terms.ts';

/** Adds a page of HTML as the host does: split into sections by extraction, then indexed. */
function addHtml(index: SearchIndex, path: string, html: string): void {
  index.addPage(path, splitSections(html, path));
}

const DEMO_PAGES = [
  'index.html',
  'quickstart.html',
  'glossary.html',
  'faq.html',
  'api/scheduler.html',
  'api/jobs.html',
  'guides/configuration.html',
  'tutorial/retries.html',
  'guides/deployment.html',
];

function demoIndex(index = new SearchIndex()): SearchIndex {
  for (const page of DEMO_PAGES) addHtml(index, page, demoPage(`aurora/en/latest/${page}`));
  return index;
}

/** An index's saved parts by name, small enough that a query's words fall in several (`savedParts`' sizes). */
const smallParts = (site: SearchIndex) =>
  new Map([...site.savedParts({ terms: 64, sections: 256, texts: 64 })].map((part) => [part.name, part.json]));

/**
 * An index fetched for a query as static mode fetches it: the head, then the parts `partsFor` names until it names none;
 * into `index` when given, as a reader's next search adds to what the last ones fetched.
 */
function fetchedFor(parts: ReadonlyMap<string, string>, query: string, index?: SearchIndex): SearchIndex {
  const fetched = index ?? new SearchIndex();
  if (!index) fetched.addPart(parts.get('head')!);
  for (let needed = fetched.partsFor(query); needed.length; needed = fetched.partsFor(query))
    for (const name of needed) fetched.addPart(parts.get(name)!);
  return fetched;
}

/** An index loaded from saved parts, in the order given. */
function loaded(parts: readonly { json: string }[]): SearchIndex {
  const index = new SearchIndex();
  for (const { json } of parts) index.addPart(json);
  index.finish();
  return index;
}

/** What a reader sees of a search: pages, titles and their sections' anchors. */
const summary = (hits: ReturnType<SearchIndex['search']>) =>
  hits.map((hit) => [hit.path, hit.title, hit.sections.map((section) => section.section.anchor)]);

const QUERIES = ['retry policy', 'misfi', 'sheduler', 'lease timeout', 'jitter zzzqqq', 'job'];

describe('SearchIndex', () => {
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
    const site = new SearchIndex();
    const entries = Array.from({ length: 30 }, (_, n) => `<li><a href="p${n}.html">entry number ${n} of the index</a></li>`).join('');
    addHtml(
      site,
      'genindex.html',
      `<html><head><title>Index — Tool docs</title></head><body><div role="main"><h1>Index</h1><ul>${entries}</ul></div></body></html>`,
    );
    addHtml(
      site,
      'notes.html',
      '<html><head><title>Release notes — Tool docs</title></head>' +
        '<body><div role="main"><p>Quokka support was added.</p></div></body></html>',
    );
    expect(site.size.pages).toBe(2);
    expect(site.search('quokka')[0]!.title).toBe('Release notes');
    expect(site.search('entry number')).toEqual([]);
    expect(site.search('index')[0]!.path).toBe('genindex.html');
  });

  it('searches what was added between searches as an index built at once does', () => {
    const growing = new SearchIndex();
    for (const [at, page] of DEMO_PAGES.entries()) {
      addHtml(growing, page, demoPage(`aurora/en/latest/${page}`));
      const atOnce = new SearchIndex();
      for (const before of DEMO_PAGES.slice(0, at + 1)) addHtml(atOnce, before, demoPage(`aurora/en/latest/${before}`));
      atOnce.finish();
      for (const query of ['retry', 'lease', 'jiter'])
        expect(growing.search(query), `${query} after ${page}`).toEqual(atOnce.search(query));
    }
  });

  it('answers the same once saved and loaded again, its parts in any order (the index cache, the index threads)', () => {
    const parts = [...index.savedParts()];
    expect(parts.at(-1)!.name).toBe('head');
    for (const again of [loaded(parts), loaded([...parts].reverse())]) {
      expect(again.size).toEqual(index.size);
      expect(again.pageTitles()).toEqual(index.pageTitles());
      for (const query of QUERIES) expect(summary(again.search(query)), query).toEqual(summary(index.search(query)));
      expect([...again.savedParts()]).toEqual(parts);
    }
  });

  it('saves its index in parts of at most about 256K characters, terms in ranges of their order, which load into the same index', () => {
    const finished = demoIndex();
    // A reference of 3,000 entries: its terms and sections take several parts each.
    const entries = Array.from(
      { length: 3000 },
      (_, entry) => `<dt id="api.f${entry}">f${entry}()</dt><dd><p>${'Computes a value. '.repeat(40)} Word${entry}.</p></dd>`,
    );
    addHtml(
      finished,
      'api/all.html',
      `<html><body><div role="main"><h1>All</h1><dl class="py function">${entries.join('')}</dl></div></body></html>`,
    );
    finished.finish();
    const parts = [...finished.savedParts()];
    expect(parts.filter((part) => part.name.startsWith('sections-')).length).toBeGreaterThan(1);
    for (const part of parts) expect(part.json.length).toBeLessThan(2 ** 19);
    const head = JSON.parse(parts.at(-1)!.json) as { termParts: string[]; sectionCounts: number[] };
    expect(head.termParts).toEqual([...head.termParts].sort());
    // A terms part starts at the shortest start of its first term past the part before: the head a search fetches first stays short.
    const terms = parts
      .filter((part) => part.name.startsWith('terms-'))
      .map((part) => (JSON.parse(part.json) as { terms: [string][] }).terms);
    for (const [index, start] of head.termParts.entries()) {
      if (index === 0) continue;
      expect(terms[index]![0]![0].startsWith(start)).toBe(true);
      expect(start > terms[index - 1]!.at(-1)![0]).toBe(true);
      expect(start.slice(0, -1) > terms[index - 1]!.at(-1)![0]).toBe(false);
    }
    expect(head.sectionCounts.reduce((sum, count) => sum + count)).toBe(finished.size.sections);
    const again = loaded(parts);
    expect(again.size).toEqual(finished.size);
    for (const query of [...QUERIES, 'f1999', 'word1234'])
      expect(summary(again.search(query)), query).toEqual(summary(finished.search(query)));
    // Pages added once it is finished (a page rebuilt) are searched too.
    addHtml(finished, 'notes.html', '<html><body><div role="main"><h1>Notes</h1><p>Quokkas.</p></div></body></html>');
    expect(finished.search('quokkas').map((hit) => hit.path)).toEqual(['notes.html']);
  });

  it("names the parts a query needs, its terms' parts then its sections', and answers from them as from the whole index", () => {
    const parts = new Map([...index.savedParts()].map((part) => [part.name, part.json]));
    for (const query of QUERIES) expect(summary(fetchedFor(parts, query).search(query)), query).toEqual(summary(index.search(query)));
  });

  it("keeps the pages' <title>s apart from what a search fetches, and writes a page's title once where its sections repeat it", () => {
    const parts = new Map([...index.savedParts()].map((part) => [part.name, part.json]));
    expect(parts.get('titles')).toContain('"documentTitles"');
    expect(parts.get('head')).not.toContain('"documentTitles"');
    for (const query of QUERIES) {
      const partial = new SearchIndex();
      partial.addPart(parts.get('head')!);
      for (let needed = partial.partsFor(query); needed.length; needed = partial.partsFor(query))
        for (const name of needed) {
          expect(name).not.toBe('titles');
          partial.addPart(parts.get(name)!);
        }
      const hits = partial.search(query);
      expect(
        hits.map((hit) => [hit.path, hit.title]),
        query,
      ).toEqual(index.search(query).map((hit) => [hit.path, hit.title]));
    }
    // The page generated for aurora.Scheduler: its title, and its first section's anchor.
    const sections = [...parts].flatMap(([name, json]) => (name.startsWith('sections-') ? [json] : [])).join('');
    expect(sections.split('"aurora.Scheduler"').length - 1).toBe(1);
    expect(index.search('scheduler').flatMap((hit) => hit.sections.map(({ section }) => section.anchor))).toContain('aurora.Scheduler');
  });

  it("saves an anchor that is its page's title as Sphinx makes an id of it without writing it, and loads it back", () => {
    const site = new SearchIndex();
    const page = (id: string, title: string) =>
      `<html><body><div role="main"><section id="${id}"><h1>${title}</h1><p>Merges two frames.</p></section></div></body></html>`;
    addHtml(site, 'api/kit.Frame.merge.html', page('kit-frame-merge', 'kit.Frame.merge'));
    addHtml(site, 'api/kit.Frame.join.html', page('joining', 'kit.Frame.join'));
    const parts = [...site.savedParts()];
    const sections = parts.flatMap(({ name, json }) => (name.startsWith('sections-') ? [json] : [])).join('');
    expect(sections).not.toContain('kit-frame-merge');
    expect(sections).toContain('"joining"');
    const anchors = (index: SearchIndex) => index.search('merges frames').map((hit) => [hit.path, hit.sections[0]!.section.anchor]);
    expect(anchors(loaded(parts))).toEqual(anchors(site));
    expect(anchors(site)).toContainEqual(['api/kit.Frame.merge.html', 'kit-frame-merge']);
  });

  it("needs no section's text to rank a one-word query, and fills in the texts of the sections shown from their parts", () => {
    const parts = new Map([...index.savedParts()].map((part) => [part.name, part.json]));
    expect([...parts.keys()].filter((name) => name.startsWith('texts-')).length).toBeGreaterThan(0);
    for (const query of ['job', 'retry policy']) {
      const partial = new SearchIndex();
      partial.addPart(parts.get('head')!);
      const fetched: string[] = [];
      for (let needed = partial.partsFor(query); needed.length; needed = partial.partsFor(query))
        for (const name of needed) {
          fetched.push(name);
          partial.addPart(parts.get(name)!);
        }
      if (query === 'job')
        expect(
          fetched.filter((name) => name.startsWith('texts-')),
          query,
        ).toEqual([]);
      const shown = partial.search(query).slice(0, 2);
      const sections = shown.flatMap((hit) => hit.sections.map(({ section }) => section));
      for (const name of partial.textsFor(sections)) partial.addPart(parts.get(name)!);
      expect(partial.textsFor(sections)).toEqual([]);
      const whole = index.search(query).slice(0, 2);
      expect(sections.map((section) => section.content)).toEqual(
        whole.flatMap((hit) => hit.sections.map(({ section }) => section.content)),
      );
      expect(sections.some((section) => section.content.length > 0)).toBe(true);
    }
  });

  it('refuses a saved index of another format', () => {
    const head = JSON.parse([...index.savedParts()].at(-1)!.json) as { format: number };
    expect(() => new SearchIndex().addPart(JSON.stringify({ ...head, format: head.format + 1 }))).toThrow(/format/);
  });

  it('saves its index the same whether it was searched before it was finished or not', () => {
    const searched = demoIndex();
    searched.search('lease');
    searched.finish();
    const unsearched = demoIndex();
    unsearched.finish();
    expect([...searched.savedParts()]).toEqual([...unsearched.savedParts()]);
  });

  it('groups sections by page, at most three each', () => {
    for (const hit of index.search('job')) {
      expect(hit.sections.length).toBeLessThanOrEqual(3);
      expect(new Set(hit.sections.map((section) => section.section.path))).toEqual(new Set([hit.path]));
    }
  });
});

/** A page of a Sphinx-like site: a heading, prose, and documented objects (`dl.py.method`, anchored by full name). */
/** A Sphinx page of prose and objects, each written by its name alone (a class's member) or `inFull` (a module's). */
function sphinxPage(title: string, prose: string, objects: { name: string; type?: string; text: string; inFull?: boolean }[] = []): string {
  const entries = objects
    .map(
      ({ name, type = 'method', text, inFull }) =>
        `<dl class="py ${type}"><dt class="sig sig-object py" id="${name}">${inFull ? name : name.split('.').at(-1)}(value)</dt>` +
        `<dd><p>${text}</p></dd></dl>`,
    )
    .join('');
  return (
    `<html><head><title>${title} — Kit docs</title></head><body><div role="main"><section id="top">` +
    `<h1>${title}</h1><p>${prose}</p>${entries}</section></div></body></html>`
  );
}

/** A page as MkDocs builds one from Markdown: it documents no object, its titles and headings name them. */
function markdownPage(title: string, sections: [string, string][]): string {
  const body = sections.map(([heading, text]) => `<h2 id="${heading}">${heading}</h2><p>${text}</p>`).join('');
  return `<html><head><title>${title} - Kit</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

describe('SearchIndex ranking rules', () => {
  const site = new SearchIndex();
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
    [
      'changelog.html',
      '<html><body><div role="main"><h1>Changelog</h1><section id="v2-1"><h2>Version 2.1</h2><p>Merging frames is faster.</p></section>' +
        '<section id="v2-0"><h2>Version 2.0</h2><p>Frames merge on keys.</p></section></div></body></html>',
    ],
    ['guide/merging.html', sphinxPage('Merging frames', 'Merge two frames on their keys, as a database joins tables.')],
    [
      'guide/index.html',
      `<html><body><div role="main"><h1>User guide</h1><ul>${['frames', 'missing', 'merging']
        .map((name) => `<li><a href="${name}.html">${name} guide page</a></li>`)
        .join('')}</ul></div></body></html>`,
    ],
  ];
  for (const [path, html] of pages) addHtml(site, path, html);
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

  it('puts the name on the object the site talks about most first in an index fetched in parts too', () => {
    // The namesake the site talks less about comes first in the index: only what the site says of their objects orders them.
    const namesakes = new SearchIndex();
    for (const [path, html] of pages.filter(([path]) => path !== 'api/frame.fillna.html')) addHtml(namesakes, path, html);
    addHtml(namesakes, 'api/frame.fillna.html', pages.find(([path]) => path === 'api/frame.fillna.html')![1]);
    namesakes.finish();
    expect(namesakes.search('fillna').map((hit) => hit.path)[0]).toBe('api/frame.fillna.html');
    // Fetched as the static mode's search fetches it, in parts small enough that the guides' words are in none of them.
    expect(
      fetchedFor(smallParts(namesakes), 'fillna')
        .search('fillna')
        .map((hit) => hit.path),
    ).toEqual(namesakes.search('fillna').map((hit) => hit.path));
  });

  it('ranks release notes below guides unless the query names a version', () => {
    expect(first('merging frames')).toBe('guide/merging.html');
    expect(first('merging frames 2.1')).toBe('changelog.html');
  });

  it('reads a page titled by one release, or a release history, as release notes whatever its headings say', () => {
    const releases = new SearchIndex();
    const notes = (title: string) =>
      '<html><body><div role="main"><h1>' +
      title +
      '</h1><section id="summary"><h2>Release summary</h2><p>Many changes.</p></section>' +
      '<section id="pca"><h2>Principal Component Analysis</h2><p>Principal component analysis is new: principal components, ' +
      'their analysis, principal component plots and the analysis of principal components.</p></section>' +
      '<section id="bugs"><h2>Bugs fixed</h2><p>Many fixes.</p></section></div></body></html>';
    for (const [path, title] of [
      ['release/0.7.html', 'Release 0.7.0'],
      ['whatsnew/v0.10.0.html', 'Version 0.10.0 (December 17, 2012)'],
      ['release/old.html', 'Pre 0.5.0 Release History'],
    ] as const)
      addHtml(releases, path, notes(title));
    const guide = ['Principal Component Analysis', 'Factor Rotation', 'Canonical Correlation', 'Multivariate Regression']
      .map((title, at) => `<section id="s${at}"><h2>${title}</h2><p>${title} of several variables.</p></section>`)
      .join('');
    addHtml(releases, 'multivariate.html', `<html><body><div role="main"><h1>Multivariate Statistics</h1>${guide}</div></body></html>`);
    expect(releases.search('principal component analysis')[0]?.path).toBe('multivariate.html');
    expect(releases.search('principal component analysis 0.7.0')[0]?.path).toBe('release/0.7.html');
  });

  it('reads a word cut short as the start of the words its stem begins ("equivalenc…" of "equivalencies")', () => {
    const units = new SearchIndex();
    addHtml(units, 'equivalencies.html', sphinxPage('Equivalencies', 'Equivalencies convert between units that are not the same.'));
    addHtml(units, 'units.html', sphinxPage('Units', 'Units of measurement, their names and prefixes.'));
    expect(units.search('equivalenc')[0]?.path).toBe('equivalencies.html');
  });

  it('reads a typo as its nearest spelling, swapped letters one edit, each word counted once', () => {
    const typos = new SearchIndex();
    addHtml(typos, 'retries.html', sphinxPage('Retries', 'Failed calls are tried again after a pause.'));
    // Words two edits from "retir", the stem of "retires": together they must not outweigh the one word one edit away.
    addHtml(typos, 'values.html', sphinxPage('Values', 'What a call returns: the return value, retro rules, a retina.'));
    expect(typos.search('retires').map((hit) => hit.path)[0]).toBe('retries.html');
    expect(typos.search('retires').map((hit) => hit.path)).toEqual(typos.search('retries').map((hit) => hit.path));
  });

  it('weighs a section headed by a name the query writes as code as an object so named (a setting)', () => {
    const settings = new SearchIndex();
    addHtml(
      settings,
      'configuration.html',
      '<html><body><div role="main"><h1>Configuration</h1><p>Every setting.</p>' +
        '<section id="task_acks_late"><h2>task_acks_late</h2><p>Default: disabled. Acknowledge a task after it ran.</p></section>' +
        '<section id="task_time_limit"><h2>task_time_limit</h2><p>Default: none. The hard limit of a task in seconds.</p></section>' +
        '</div></body></html>',
    );
    addHtml(
      settings,
      'tasks.html',
      sphinxPage('Tasks', 'Tasks are acknowledged late when task_acks_late is set: see the setting task_acks_late.', [
        {
          name: 'kit.Task.acks_late',
          type: 'attribute',
          text: 'Acknowledge late, after the task ran; the setting task_acks_late sets it.',
        },
      ]),
    );
    expect(settings.search('task_acks_late setting').map((hit) => hit.path)[0]).toBe('configuration.html');
  });

  it('puts a class above the methods named after it, however much the site talks about their owners', () => {
    const classes = new SearchIndex();
    for (const n of [1, 2, 3]) addHtml(classes, `guide${n}.html`, sphinxPage(`Guide ${n}`, `Make an App, then start the App (step ${n}).`));
    addHtml(
      classes,
      'api/app.html',
      sphinxPage('kit.App', 'The application.', [
        { name: 'kit.App.AsyncJob', text: 'Makes an AsyncJob of a job id for this application.' },
      ]),
    );
    addHtml(
      classes,
      'api/jobs.html',
      sphinxPage('kit.jobs', 'Jobs.', [
        { name: 'kit.jobs.AsyncJob', type: 'class', text: 'A job running elsewhere: its state and result.' },
      ]),
    );
    expect(classes.search('AsyncJob').map((hit) => hit.path)[0]).toBe('api/jobs.html');
  });

  it('puts an exception where its entry names it in full above the same exception held by a class the site talks about', () => {
    const exceptions = new SearchIndex();
    for (const n of [1, 2, 3])
      addHtml(exceptions, `guide${n}.html`, sphinxPage(`Guide ${n}`, `Send a Message, then ack the Message (${n}).`));
    addHtml(
      exceptions,
      'api/message.html',
      sphinxPage('kit.message', 'Messages.', [
        { name: 'kit.message.Message', type: 'class', text: 'A message received from a queue, to ack or reject.', inFull: true },
        { name: 'kit.message.Message.StateError', type: 'exception', text: 'Raised when a message is acked twice.' },
      ]),
    );
    addHtml(
      exceptions,
      'api/exceptions.html',
      sphinxPage('kit.exceptions', 'Errors.', [
        { name: 'kit.exceptions.StateError', type: 'exception', text: 'Raised when a message is acked twice.', inFull: true },
      ]),
    );
    expect(exceptions.search('StateError').map((hit) => hit.path)[0]).toBe('api/exceptions.html');
  });

  it('ranks the page about a word above a long reference page that mentions it in a few of its entries', () => {
    const reference = new SearchIndex();
    const entries = Array.from({ length: 40 }, (_, n) => ({ name: `kit.Part${n}.run`, text: `Runs part ${n} of the application.` }));
    entries[7] = { name: 'kit.App.register_blueprint', text: 'Registers a blueprint.' };
    addHtml(reference, 'api.html', sphinxPage('API', 'Every class and function of Kit.', entries));
    const guide = (heading: string, text: string) => `<section id="${heading.toLowerCase()}"><h2>${heading}</h2><p>${text}</p></section>`;
    addHtml(
      reference,
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
    const canvas = new SearchIndex();
    const section = (heading: string, text: string) => `<section id="${heading.toLowerCase()}"><h2>${heading}</h2><p>${text}</p></section>`;
    addHtml(
      canvas,
      'canvas.html',
      '<html><body><div role="main"><section id="top"><h1>Designing work-flows</h1><p>Signatures and primitives.</p>' +
        section('Chains', 'A chain links work together: each step runs after the one before it, passing its result on to the next step.') +
        section('Groups', 'A group runs several steps in parallel and gathers their results in order, once every one of them is done.') +
        '</section></div></body></html>',
    );
    addHtml(canvas, 'calling.html', sphinxPage('Calling', 'Options of a call.', [{ name: 'kit.App.send', text: 'Tasks: chain, group.' }]));
    expect(canvas.search('chains and groups of tasks')[0]?.path).toBe('canvas.html');
  });

  it('ranks a long docstring that says the words often above short entries that say them once (length weighs less in text)', () => {
    const api = new SearchIndex();
    const filler = Array.from({ length: 40 }, (_, at) => `Argument ${at} is read as given and passed on unchanged.`).join(' ');
    const docstring =
      `${filler} The numpy function takes numpy arrays. ${filler} Any expression becomes a numpy function this way, ` +
      'an expression of symbols.';
    addHtml(api, 'api/lambdify.html', sphinxPage('kit.lambdify', 'The lambdify function.', [{ name: 'kit.lambdify', text: docstring }]));
    for (const name of ['Frame', 'Series', 'Index', 'Grid'])
      addHtml(
        api,
        `api/${name.toLowerCase()}.html`,
        sphinxPage(`kit.${name}`, `The ${name} class.`, [
          { name: `kit.${name}.apply`, text: 'Applies a numpy function to an expression.' },
        ]),
      );
    expect(api.search('turn an expression into a numpy function')[0]?.path).toBe('api/lambdify.html');
  });

  it('ranks the object a query of several words names as code is written above guides that mention it more', () => {
    const site = new SearchIndex();
    addHtml(site, 'examples/seasonal.html', sphinxPage('Seasonal models', 'Fit an ARIMA model with seasonal terms, then forecast.'));
    addHtml(site, 'examples/airline.html', sphinxPage('Airline passengers', 'An ARIMA model of airline data forecasts the next year.'));
    const arima = { name: 'kit.tsa.ARIMA', type: 'class', text: 'An ARIMA model: fit it, then forecast from the results.' };
    addHtml(site, 'api/kit.tsa.ARIMA.html', sphinxPage('kit.tsa.ARIMA', 'Autoregressive integrated moving average.', [arima]));
    expect(site.search('forecast with an ARIMA model')[0]?.path).toBe('api/kit.tsa.ARIMA.html');
    // Written as a word, "arima" names nothing: the guides that say it most come first.
    expect(site.search('forecast with an arima model')[0]?.path).not.toBe('api/kit.tsa.ARIMA.html');
  });

  it('ranks the member of a class the query names beside it above the class and the namesakes of other classes', () => {
    const site = new SearchIndex();
    const page = (name: string, text: string, type = 'method') =>
      addHtml(site, `api/${name}.html`, sphinxPage(name, text, [{ name, type, text, inFull: type === 'class' }]));
    page('kit.fit.FitResults', 'The results of a fit: params, resid_pearson and resid_deviance.', 'class');
    page('kit.fit.FitResults.resid_deviance', 'The deviance residuals of the fit: its residuals by their deviance, one per observation.');
    page('kit.fit.FitResults.resid_pearson', 'Pearson residuals of the fit.');
    page('kit.fit.FitResults.params', 'The parameters of the fit.');
    page('kit.mixed.MixedResults.resid_deviance', 'Deviance residuals of a mixed fit: the deviance residuals, scaled.');
    const paths = site.search('deviance residuals of FitResults').map((hit) => hit.path);
    expect(paths.slice(0, 2)).toEqual(['api/kit.fit.FitResults.resid_deviance.html', 'api/kit.fit.FitResults.html']);
  });

  it('finds an object by its dotted name where a heading is its signature, with no role (mkdocstrings: click.core)', () => {
    const site = new SearchIndex();
    const entry = (name: string, signature: string, text: string) =>
      `<h3 id="${name}" class="doc doc-heading"><code>${signature}</code></h3><div class="doc doc-contents"><p>${text}</p></div>`;
    addHtml(
      site,
      'api/core/index.html',
      '<html><body><main><h1 id="core">Core</h1>' +
        entry('kit.core.Command', 'Command(name, callback=None)', 'Commands are the basic building block of command line interfaces.') +
        entry('kit.core.Command.invoke', 'invoke(ctx)', 'Given a context, this invokes the attached callback.') +
        entry('kit.core.Context', 'Context(command, parent=None)', 'The context is a special internal object that holds state.') +
        entry('kit.core.Context.invoke', 'invoke(__self, __callback, *args)', 'Invokes a command callback in exactly the way it expects.') +
        '</main></body></html>',
    );
    expect(site.search('Context.invoke')[0]!.sections[0]!.section.anchor).toBe('kit.core.Context.invoke');
  });

  it('ranks an FAQ entry whose question holds every word of a question put otherwise above pages that say the words', () => {
    const site = new SearchIndex();
    addHtml(
      site,
      'faq.html',
      '<html><body><main><section id="faq"><h1>FAQ</h1><section id="timeout"><h2>How do I change the timeout value for cursors?</h2>' +
        '<p>Cursors close after ten minutes of inactivity; pass no_cursor_timeout to keep one open.</p></section>' +
        '<section id="fork"><h2>Is it safe to fork?</h2><p>Create clients after forking.</p></section></section></main></body></html>',
    );
    addHtml(
      site,
      'migrate.html',
      '<html><body><main><section id="m"><h1>Migrating</h1><section id="t"><h2>The cursor timeout option changed</h2>' +
        '<p>The cursor timeout option changed its name: change timeout=False to no_cursor_timeout, the cursor timeout.</p>' +
        '</section></section></main></body></html>',
    );
    expect(site.search('how do I change the cursor timeout')[0]!.path).toBe('faq.html');
    // Not put as a question: the words' own ranking.
    expect(site.search('change cursor timeout')[0]!.path).toBe('migrate.html');
  });

  it('ranks an object the query names by its initials above guides that say its words as much', () => {
    const site = new SearchIndex();
    const guide = 'Weighted least squares weighs each observation by the inverse of its variance.';
    addHtml(site, 'guide/weights.html', sphinxPage('Observations', guide));
    const variance = 'When variances differ, least squares fits better with weighted observations.';
    addHtml(site, 'guide/variance.html', sphinxPage('Unequal variances', variance));
    const wls = { name: 'kit.regression.WLS', type: 'class', text: 'A regression model fit by weighted least squares.' };
    addHtml(site, 'api/kit.regression.WLS.html', sphinxPage('kit.regression.WLS', 'Regression models.', [wls]));
    expect(site.search('weighted least squares')[0]?.path).toBe('api/kit.regression.WLS.html');
  });

  it('ranks a page titled by the initials of the words of the query above pages that say its words more', () => {
    const site = new SearchIndex();
    const wsgi = 'Deploy Kit behind a web server: Gunicorn, uWSGI and mod_wsgi speak its interface.';
    addHtml(site, 'howto/wsgi.html', sphinxPage('How to deploy with WSGI', wsgi));
    addHtml(site, 'howto/checklist.html', sphinxPage('Deployment checklist', 'Check the web server and its gateway before you deploy.'));
    const settings = 'The web server reads these; a gateway interface reads them too, with the server.';
    addHtml(site, 'ref/settings.html', sphinxPage('Settings', settings));
    expect(site.search('web server gateway interface')[0]?.path).toBe('howto/wsgi.html');
  });

  it('ranks a page titled by a CamelCase name the words of the query make above a page that says the words more', () => {
    const site = new SearchIndex();
    const guide = 'Mock the agent, then read its span recorder: every mocked request leaves a span, and the span recorder keeps them.';
    addHtml(site, 'guides/mocking/index.html', markdownPage('Mocking requests', [['Read the span recorder', guide]]));
    const agent = 'A mocked agent answers requests; its span recorder lists the requests it answered.';
    addHtml(site, 'api/MockAgent/index.html', markdownPage('Class: MockAgent', [['Example - the span recorder of requests', agent]]));
    const spans: [string, string][] = [
      ['spans', 'The spans of the mocked requests, oldest first.'],
      ['clear', 'Forgets every span.'],
    ];
    addHtml(site, 'api/MockSpanRecorder/index.html', markdownPage('Class: MockSpanRecorder', spans));
    const paths = site.search('span recorder of mocked requests').map((hit) => hit.path);
    // The guide that says the words answers as well and stays first.
    expect(paths.slice(0, 3)).toEqual(['guides/mocking/index.html', 'api/MockSpanRecorder/index.html', 'api/MockAgent/index.html']);
  });

  it('ranks a heading that is a CamelCase name the words of the query make above a guide, not one before parameters', () => {
    const tracerSite = (heading: string) => {
      const site = new SearchIndex();
      const limits = 'Every span is kept until the limit: a tracer with a span limit drops the oldest span.';
      addHtml(site, 'guides/limits/index.html', markdownPage('Limits', [['Spans and memory', limits]]));
      const tracer: [string, string][] = [
        [heading, 'The most spans kept.'],
        ['Tracer.flush()', 'Sends every span.'],
      ];
      addHtml(site, 'api/Tracer/index.html', markdownPage('Class: Tracer', tracer));
      return site.search('span limit of a tracer')[0]?.path;
    };
    expect(tracerSite('Tracer.spanLimit')).toBe('api/Tracer/index.html');
    // A name before parameters may be any call's: Node.js' "fs.readFile(path[, options], callback)".
    expect(tracerSite('Tracer.spanLimit(value)')).toBe('guides/limits/index.html');
  });

  it('ranks a guide above reference entries whose names hold the words of a question of how to do something', () => {
    const site = new SearchIndex();
    addHtml(
      site,
      'reference/messaging.html',
      sphinxPage('Core API', 'The classes of the library, by module.', [
        { name: 'kit.Producer.publish', text: 'Publish a message to an exchange.' },
        { name: 'kit.Queue.routing_key', type: 'attribute', text: 'The routing key of the messages the queue is bound to.' },
        ...['close', 'connect', 'consume', 'declare', 'drain', 'flow', 'purge', 'qos', 'recover', 'revive', 'select', 'wait'].map(
          (name) => ({
            name: `kit.Channel.${name}`,
            text: `Calls ${name} on the channel and returns when the broker answers.`,
          }),
        ),
      ]),
    );
    addHtml(
      site,
      'guide/producers.html',
      sphinxPage(
        'Producers',
        'To publish a message, a producer sends it to an exchange with a routing key; the exchange routes the message to ' +
          'the queues bound with that routing key. Publish each message with the key its consumers listen on.',
      ),
    );
    for (const topic of ['Consumers', 'Connections', 'Serialization', 'Pools'])
      addHtml(site, `guide/${topic.toLowerCase()}.html`, sphinxPage(topic, `${topic} of new tasks: how the cluster launches a task.`));
    expect(site.search('publish a message with a routing key')[0]?.path).toBe('guide/producers.html');
    // A name, or a question that writes one as code, still asks for the object.
    expect(site.search('Producer.publish')[0]?.path).toBe('reference/messaging.html');
    expect(site.search('publish a message with a routing_key')[0]?.path).toBe('reference/messaging.html');
  });

  it("ranks an object's own page (titled by its name) as an answer to a question of how to do something, as a guide", () => {
    const site = new SearchIndex();
    const docstring =
      'Turns an expression into a numpy function that evaluates it fast on arrays. The numpy function it returns takes ' +
      'the symbols of the expression as arguments, in order.';
    const entries = [
      { name: 'kit.utils.lambdify', text: docstring },
      { name: 'kit.utils.implemented_function', text: 'Adds a numeric implementation to a symbolic function.' },
      { name: 'kit.utils.lambdastr', text: 'The source of the function lambdify would make, as a string.' },
    ];
    addHtml(site, 'api/lambdify.html', sphinxPage('Lambdify', 'Numeric evaluation.', entries));
    addHtml(
      site,
      'guide/numeric.html',
      sphinxPage(
        'Numeric computation with numpy',
        'To evaluate an expression on many values, turn the expression into a numpy function with lambdify: a numpy ' +
          'function of the expression is fast, and numpy functions take arrays.',
      ),
    );
    expect(site.search('turn an expression into a numpy function')[0]?.path).toBe('api/lambdify.html');
  });

  it("ranks a guide above an object's own page that holds no more than half of the words of a question of how to do something", () => {
    const site = new SearchIndex();
    const objectPage = (name: string, text: string) =>
      addHtml(site, `generated/${name}.html`, sphinxPage(name, '', [{ name, type: 'function', text, inFull: true }]));
    objectPage('kit.array.masked_inside', 'Mask an array inside an interval: the values inside it are masked.');
    objectPage('kit.bag.read_text', 'Read lines of text files into a bag, one element per line.');
    for (const name of ['kit.array.sum', 'kit.array.mean', 'kit.array.where', 'kit.bag.map', 'kit.bag.filter'])
      objectPage(name, `The ${name.split('.').at(-1)} of the elements of a collection.`);
    addHtml(
      site,
      'futures.html',
      sphinxPage(
        'Futures',
        'Futures stand for results that the cluster computes. A task can launch new tasks with the client of its ' +
          'worker. Wait for futures, gather their results, cancel them, or let them go: the scheduler forgets a future ' +
          'that no client holds, and releases its memory once its dependents have run.',
      ),
    );
    for (const topic of ['Scheduling', 'Deployment', 'Diagnostics'])
      addHtml(site, `${topic.toLowerCase()}.html`, sphinxPage(topic, `${topic} of new tasks: how the cluster launches a task.`));
    expect(site.search('launch new tasks from inside a running task')[0]?.path).toBe('futures.html');
    // An object's page that holds most of the question's words is its answer.
    expect(site.search('read the lines of many text files into a bag')[0]?.path).toBe('generated/kit.bag.read_text.html');
  });

  it('ranks the page whose section says how to do something above a long page that says each word of the question apart', () => {
    const site = new SearchIndex();
    addHtml(
      site,
      'topics/requests.html',
      markdownPage('Requests and responses', [
        [
          'Passing additional data to callback functions',
          'To pass data to the next callback, put it in the keyword arguments of the request.',
        ],
        ['Request objects', 'A request stands for an HTTP request, sent by the engine and answered by a response.'],
        ['Response objects', 'A response stands for an HTTP response, given to the spider that asked for it.'],
      ]),
    );
    addHtml(
      site,
      'intro/tutorial.html',
      markdownPage('Tutorial', [
        ['Our first spider', 'A spider says which pages to crawl, one after the other, and how to parse them.'],
        ['Storing the scraped data', 'Export the data the spider scraped to a JSON file with the crawl command.'],
        ['Following links', 'A callback parses each page; the spider follows the links it finds with the same callback.'],
        ['Passing arguments', 'Pass arguments to a spider on the command line with the -a option.'],
        ['Next steps', 'Read the next chapters, on selectors, items and pipelines.'],
      ]),
    );
    for (const topic of ['Selectors', 'Items', 'Pipelines', 'Settings'])
      addHtml(site, `topics/${topic.toLowerCase()}.html`, markdownPage(topic, [[topic, `${topic} of a spider, and what they hold.`]]));
    expect(site.search('pass data from one callback to the next')[0]?.path).toBe('topics/requests.html');
  });

  it('ranks an entry that documents nothing below one that does, their names holding the same words of the query', () => {
    const site = new SearchIndex();
    addHtml(site, 'reference/sqs.html', sphinxPage('SQS transport', 'Sends messages.', [{ name: 'kit.sqs.Pool.get_url', text: '' }]));
    const documented = { name: 'kit.redis.Pool.get_url', text: 'Returns the address it was given, as given.' };
    addHtml(site, 'reference/redis.html', sphinxPage('Redis transport', 'Sends messages.', [documented]));
    expect(site.search('pool url').map((hit) => hit.path)).toEqual(['reference/redis.html', 'reference/sqs.html']);
  });

  it('reads numbered headings ("5.1.3. List Comprehensions") as a book\'s sections, not as versions of release notes', () => {
    const book = new SearchIndex();
    const section = (heading: string, text: string) => `<section><h2 id="${heading.length}">${heading}</h2><p>${text}</p></section>`;
    addHtml(
      book,
      'tutorial/data.html',
      '<html><body><div role="main"><section id="top"><h1>5. Data Structures</h1><p>Lists, sets and dictionaries.</p>' +
        section('5.1. More on Lists', 'Methods of lists.') +
        section('5.1.3. List Comprehensions', 'A concise way to make lists from other sequences.') +
        section('5.2. Sets', 'Unordered collections without duplicates.') +
        section('5.3. Dictionaries', 'Mappings of keys to values.') +
        '</section></div></body></html>',
    );
    addHtml(
      book,
      'howto/functional.html',
      sphinxPage(
        'Generator expressions and list comprehensions',
        'Two ways of working on every element of a sequence: list comprehensions make a list, generator expressions an iterator.',
      ),
    );
    expect(book.search('list comprehensions')[0]?.path).toBe('tutorial/data.html');
  });

  it('ranks a guide headed by a lone word above a member of a class that has the name, and lifts no entry that documents nothing', () => {
    const flow = new SearchIndex();
    addHtml(
      flow,
      'canvas.html',
      sphinxPage('Chords', 'A chord is a group of tasks with a callback that runs once all of them are done, with their results.'),
    );
    addHtml(
      flow,
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

  /** A page generated for one object, as autosummary writes them. */
  const objectPage = (name: string, text: string, type = 'function') => sphinxPage(name, '', [{ name, type, text }]);
  const parameters = ' Parameters: order: the order. kind: which kind. Returns: the result, an array of the same shape as the input.';

  it("ranks the object whose summary line says the query above objects named by one word of it and the overview's line on it", () => {
    const signal = new SearchIndex();
    addHtml(signal, 'api/kit.butter.html', objectPage('kit.butter', `Butterworth digital and analog filter design.${parameters}`));
    for (const name of ['gaussian_filter', 'median_filter', 'uniform_filter'])
      addHtml(signal, `api/kit.${name}.html`, objectPage(`kit.${name}`, `Applies a ${name.split('_')[0]} kernel.${parameters}`));
    const rows = ['butter', 'gaussian_filter', 'median_filter', 'uniform_filter'].map(
      (name) =>
        `<tr><td><a href="api/kit.${name}.html">${name}</a>(x, order)</td>` +
        `<td>${name === 'butter' ? 'Butterworth digital and analog filter design.' : 'A filter.'}</td></tr>`,
    );
    addHtml(
      signal,
      'signal.html',
      '<html><body><div role="main"><h1>Signal processing</h1><h2 id="filters">Filter design</h2>' +
        `<table>${rows.join('')}</table></div></body></html>`,
    );
    const ranked = signal.search('butterworth filter').map((hit) => hit.path);
    expect(ranked[0]).toBe('api/kit.butter.html');
    expect(ranked).toContain('signal.html');
  });

  it("reads an object's signature by its name: its parameters' names are not its subject", () => {
    const units = new SearchIndex();
    addHtml(
      units,
      'api/kit.convert.html',
      objectPage('kit.convert', 'Converts a value.', 'function').replace('convert(value)', 'convert(value, unit, scale)'),
    );
    addHtml(
      units,
      'scales.html',
      sphinxPage('Choosing units', 'How a unit is chosen for a plot, and which scale suits it: a log scale for wide ranges.'),
    );
    expect(units.search('unit scale')[0]?.path).toBe('scales.html');
  });

  it('finds a name the query spells in words ("pixel to world", "t-test")', () => {
    const names = new SearchIndex();
    addHtml(
      names,
      'api/kit.WCS.html',
      sphinxPage('kit.WCS', 'World coordinates.', [{ name: 'kit.WCS.pixel_to_world', text: 'Converts pixels.' }]),
    );
    addHtml(
      names,
      'pixels.html',
      sphinxPage('Pixels', 'A pixel of the image maps to a point of the world; the world maps back to a pixel, pixel by pixel.'),
    );
    expect(names.search('pixel to world')[0]?.path).toBe('api/kit.WCS.html');
    addHtml(
      names,
      'api/kit.ttest_ind.html',
      objectPage('kit.ttest_ind', `Calculate the T-test for the means of two independent samples.${parameters}`),
    );
    addHtml(
      names,
      'tests.html',
      sphinxPage('Statistical tests', 'Each test compares samples: two samples, independent samples, paired samples, a test of each.'),
    );
    expect(names.search('t-test for two independent samples')[0]?.path).toBe('api/kit.ttest_ind.html');
  });

  it('finds a name that runs three words together ("zero inflated poisson" for `ZeroInflatedPoisson`) before longer ones', () => {
    const models = new SearchIndex();
    addHtml(
      models,
      'api/kit.ZeroInflatedPoisson.html',
      objectPage('kit.ZeroInflatedPoisson', 'Poisson model with inflated zeros.', 'class'),
    );
    addHtml(
      models,
      'api/kit.ZeroInflatedGeneralizedPoisson.html',
      objectPage('kit.ZeroInflatedGeneralizedPoisson', 'Zero inflated generalized Poisson model: a Poisson model, zero inflated.', 'class'),
    );
    expect(models.search('zero inflated poisson')[0]?.path).toBe('api/kit.ZeroInflatedPoisson.html');
  });

  it('shows an object documented on two pages under the name the query names, else under the shorter one', () => {
    const blocks = new SearchIndex();
    const text = 'Map a function across all blocks of an array, block by block, in parallel.';
    addHtml(blocks, 'api/kit.array.map_blocks.html', objectPage('kit.array.map_blocks', text));
    addHtml(blocks, 'api/kit.array.Array.map_blocks.html', objectPage('kit.array.Array.map_blocks', text, 'method'));
    expect(blocks.search('map_blocks').map((hit) => hit.path)).toEqual(['api/kit.array.map_blocks.html']);
    expect(blocks.search('Array.map_blocks').map((hit) => hit.path)).toEqual(['api/kit.array.Array.map_blocks.html']);
  });

  it('ranks the copies of one docstring on namesakes after the first below an answer nearly as good', () => {
    const plots = new SearchIndex();
    const copy = 'Plot the sample autocorrelation of the residuals, lag by lag, in a grid of plots.';
    for (const owner of ['VARResults', 'SVARResults', 'VECMResults'])
      addHtml(plots, `api/kit.${owner}.plot_acorr.html`, objectPage(`kit.${owner}.plot_acorr`, copy, 'method'));
    addHtml(plots, 'api/kit.plot_acf.html', objectPage('kit.plot_acf', 'Plot the sample autocorrelation of a series, lag by lag.'));
    const ranked = plots.search('plot the sample autocorrelation').map((hit) => hit.path);
    expect(ranked.slice(0, 2)).toEqual(['api/kit.VARResults.plot_acorr.html', 'api/kit.plot_acf.html']);
  });

  it("weighs a class's table of its own members as the class's documentation, not as an overview of other pages", () => {
    const power = new SearchIndex();
    const rows = [
      ['power', 'Calculate the power of a two sample test.'],
      ['plot', 'Plot the power against the number of observations.'],
    ]
      .map(([name, text]) => `<tr><td><a href="kit.IndPower.${name}.html">${name}</a>(effect, nobs)</td><td>${text}</td></tr>`)
      .join('');
    addHtml(
      power,
      'api/kit.IndPower.html',
      '<html><head><title>kit.IndPower — Kit docs</title></head><body><div role="main"><section id="top"><h1>kit.IndPower</h1>' +
        '<dl class="py class"><dt class="sig sig-object py" id="kit.IndPower">class kit.IndPower(alpha)</dt>' +
        `<dd><p>Power calculations for a two sample test.</p><p>Methods</p><table>${rows}</table></dd></dl></section></div></body></html>`,
    );
    addHtml(
      power,
      'api/kit.IndPower.power.html',
      objectPage('kit.IndPower.power', 'Calculate the power of a two sample test: from the sample size, the effect and alpha.', 'method'),
    );
    expect(power.search('power of a two sample test')[0]?.path).toBe('api/kit.IndPower.html');
  });

  it('ranks an object whose name runs the query\'s words together ("qq plot" for `qqplot`) as a section titled by them', () => {
    const plots = new SearchIndex();
    addHtml(plots, 'api/kit.qqplot.html', objectPage('kit.qqplot', 'Q-Q plot of the quantiles of the data against a distribution.'));
    addHtml(
      plots,
      'examples/residuals.html',
      '<html><body><div role="main"><h1>Residuals</h1><section id="fit"><h2>Fitting</h2><p>Fit the model.</p></section>' +
        '<section id="qq"><h2>QQ plot of the residuals</h2><p>A QQ plot shows the residuals: the qq plot of a good fit ' +
        'is a line, and a QQ plot bends where the tails are heavy.</p></section></div></body></html>',
    );
    expect(plots.search('qq plot')[0]?.path).toBe('api/kit.qqplot.html');
  });

  it("counts a name spelled in words beyond its words, not them again (a guide on its subject before namesakes' methods)", () => {
    const site = new SearchIndex();
    addHtml(
      site,
      'predict.html',
      '<html><body><div role="main"><h1 id="top">Prediction (out of sample)</h1><p>import kit</p>' +
        '<h2 id="data">Artificial data</h2><p>x = kit.linspace(0, 20)</p>' +
        '<h2 id="fit">Estimation</h2><p>Fit a least squares model to the data.</p>' +
        '<h2 id="plot">Plotting</h2><p>Predicted values of new data, plotted.</p>' +
        '<h2 id="formulas">Predicting with formulas</h2><p>Formulas make predictions easier.</p></div></body></html>',
    );
    for (const owner of ['Fourier', 'Trend', 'Seasonality', 'Calendar'])
      addHtml(
        site,
        `api/kit.${owner}.out_of_sample.html`,
        objectPage(`kit.${owner}.out_of_sample`, 'Terms of the deterministic process for the steps past the sample, out of it.'),
      );
    // Predicting new data is what much of the site is about: those words say less than "out of sample".
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
      addHtml(site, `models/model${n}.html`, sphinxPage(`Model ${n}`, `Model ${n} fits data; it predicts new data once fitted.`));
    const [guide, ...methods] = site.search('predict on new data out of sample');
    expect(guide?.path).toBe('predict.html');
    // The section headed by the subject, before every entry whose name only says "out of sample" again.
    expect(guide?.sections[0]?.section.anchor).toBe('top');
    for (const method of methods.filter((hit) => hit.path.startsWith('api/')))
      expect(guide!.sections[0]!.score).toBeGreaterThan(method.sections[0]!.score);
    // The name whole still finds its methods first.
    expect(site.search('out_of_sample')[0]?.path).toMatch(/^api\/kit\.\w+\.out_of_sample\.html$/);
  });

  it('reads words before the last as whole, unless the site lacks them (cut short)', () => {
    const files = new SearchIndex();
    addHtml(
      files,
      'readline.html',
      sphinxPage('readline — line editing', 'The readline module edits the line being typed; its history lives in a file.'),
    );
    addHtml(files, 'files.html', sphinxPage('Reading files', 'To read a file, open it and read it line by line; close the file after.'));
    const hits = files.search('read file line');
    expect(hits[0]?.path).toBe('files.html');
    // "read" was followed by more words: it is whole, not the start of "readline".
    expect([...hits.find((hit) => hit.path === 'readline.html')!.matchedWords]).not.toContain('readlin');
    expect(files.search('readli edit')[0]?.path).toBe('readline.html');
  });

  it('reads a full name by its own part: every name of a module `units` is not about units', () => {
    const units = new SearchIndex();
    for (const name of ['si', 'cgs', 'imperial', 'spectral', 'logarithmic'])
      addHtml(units, `api/kit.units.${name}.html`, objectPage(`kit.units.${name}`, `The ${name} system of measures.${parameters}`));
    addHtml(
      units,
      'measures.html',
      sphinxPage('Measuring things', 'A number with its units is a quantity, which arithmetic keeps consistent.'),
    );
    expect(units.search('units')[0]?.path).toBe('measures.html');
  });

  it('reads a version number whole: release 0.2.0 is no release 2.0', () => {
    const releases = new SearchIndex();
    const notes = (version: string) =>
      `<section id="v${version}"><h2>${version}</h2><p>Fixes of ${version}: migrating is easier.</p></section>`;
    addHtml(
      releases,
      'changelog.html',
      `<html><body><div role="main"><h1>Changelog</h1>${notes('0.2.0')}${notes('1.2.0')}${notes('2.0')}</div></body></html>`,
    );
    expect(releases.search('migrating to 2.0')[0]?.sections[0]?.section.anchor).toBe('v2.0');
    expect(releases.search('2.0').flatMap((hit) => hit.sections.map((section) => section.section.anchor))).toEqual(['v2.0']);
  });

  it('reads a word being typed as the shortest title word it starts, or the stem it was cut from', () => {
    const coordinates = new SearchIndex();
    addHtml(
      coordinates,
      'api/kit.SkyCoordInfo.html',
      objectPage('kit.SkyCoordInfo', `Container for meta information.${parameters}`, 'class'),
    );
    addHtml(coordinates, 'api/kit.join_skycoord.html', objectPage('kit.join_skycoord', `Joins on skycoord columns.${parameters}`));
    addHtml(
      coordinates,
      'api/kit.SkyCoord.html',
      objectPage('kit.SkyCoord', `High-level object for sky coordinates, with many methods and attributes.${parameters}`, 'class'),
    );
    expect(coordinates.search('skycoo')[0]?.path).toBe('api/kit.SkyCoord.html');
    addHtml(
      coordinates,
      'api/kit.set_enabled_equivalencies.html',
      objectPage('kit.set_enabled_equivalencies', `Sets the equivalencies in use.${parameters}`),
    );
    addHtml(
      coordinates,
      'equivalencies.html',
      sphinxPage('Equivalencies', 'Conversions between units that are equivalent in some context: wavelength and frequency.'),
    );
    expect(coordinates.search('equivalen')[0]?.path).toBe('equivalencies.html');
  });

  it('reads words joined by a hyphen as one word, not as a name of several', () => {
    const commands = new SearchIndex();
    addHtml(
      commands,
      'api/kit.build.html',
      sphinxPage('kit.build', 'Builds things.', [{ name: 'kit.Build.sub_commands', type: 'attribute', text: 'The commands it runs.' }]),
    );
    addHtml(
      commands,
      'cli.html',
      sphinxPage('Command line', 'The parser takes subcommands: each sub-command has arguments of its own, and sub commands nest.'),
    );
    expect(commands.search('parser sub-commands')[0]?.path).toBe('cli.html');
  });

  it('puts a built-in (a name that belongs to nothing) above its namesakes on modules, however central they are', () => {
    const python = new SearchIndex();
    addHtml(
      python,
      'library/threading.html',
      sphinxPage('threading', 'The threading module runs threads.', [
        { name: 'threading.enumerate', type: 'function', text: 'Return a list of all Thread objects currently active.' },
      ]),
    );
    for (const topic of ['locks', 'events', 'timers'])
      addHtml(python, `howto/${topic}.html`, sphinxPage(topic, `With threading, ${topic} coordinate threads; threading makes it easy.`));
    addHtml(
      python,
      'library/functions.html',
      sphinxPage('Built-in functions', 'Functions always available.', [
        { name: 'enumerate', type: 'function', text: 'Return an enumerate object: pairs of a count and a value.' },
      ]),
    );
    expect(python.search('enumerate')[0]?.path).toBe('library/functions.html');
  });

  it('puts first, among methods of several classes that a query names in words, the one on the class the site mentions most', () => {
    const frames = new SearchIndex();
    const method = (owner: string, text: string) => sphinxPage(`kit.${owner}.ffill`, text, [{ name: `kit.${owner}.ffill`, text }]);
    addHtml(frames, 'api/kit.DataFrame.ffill.html', method('DataFrame', 'Synonym for fillna with method ffill: missing values filled.'));
    addHtml(frames, 'api/kit.GroupBy.ffill.html', method('GroupBy', 'Forward fill the missing values of each group.'));
    addHtml(frames, 'api/kit.Resampler.ffill.html', method('Resampler', 'Forward fill the missing values of each bin.'));
    for (const topic of ['indexing', 'reshaping', 'merging'])
      addHtml(frames, `guide/${topic}.html`, sphinxPage(topic, `A DataFrame holds columns; ${topic} a DataFrame makes a new one.`));
    addHtml(frames, 'guide/groups.html', sphinxPage('Groups', 'A GroupBy splits the rows.'));
    // Its text says fewer of the words than its namesakes': it is still what the site's readers mean.
    expect(frames.search('forward fill missing values')[0]?.path).toBe('api/kit.DataFrame.ffill.html');
    // Unless the query names another of their classes.
    expect(frames.search('groupby forward fill')[0]?.path).toBe('api/kit.GroupBy.ffill.html');
    expect(frames.search('resampler forward fill')[0]?.path).toBe('api/kit.Resampler.ffill.html');
  });

  it('lifts a section titled by the name the query writes whole (a setting), not a name that only holds its words', () => {
    const settings = new SearchIndex();
    addHtml(
      settings,
      'configuration.html',
      '<html><body><div role="main"><h1>Configuration</h1><dl class="std setting"><dt id="std-setting-task_acks_late">task_acks_late</dt>' +
        '<dd><p>Default: disabled. Late acknowledgement means the message is acknowledged after the task ran.</p></dd></dl>' +
        '</div></body></html>',
    );
    addHtml(
      settings,
      'tasks.html',
      sphinxPage('Tasks', 'Set task_acks_late for idempotent tasks; with task_acks_late, a task that fails is run again.', [
        { name: 'kit.Task.acks_late', type: 'attribute', text: 'When enabled, messages of this task are acknowledged late.' },
      ]),
    );
    expect(settings.search('task_acks_late')[0]?.path).toBe('configuration.html');
    addHtml(settings, 'api/kit.is_late.html', objectPage('kit.is_late', `Whether a task ran late.${parameters}`));
    addHtml(settings, 'late.html', sphinxPage('Late', 'When a task runs late, and what late means for its results.'));
    expect(settings.search('late')[0]?.path).toBe('late.html');
  });

  it('shows an object documented under two full names once, by the name its module re-exports, but namesakes apart', () => {
    const copies = new SearchIndex();
    const text = `Perform sigma-clipping on the provided data.${parameters}`;
    addHtml(copies, 'api/kit.stats.clipping.sigma_clip.html', objectPage('kit.stats.clipping.sigma_clip', text));
    addHtml(copies, 'api/kit.stats.sigma_clip.html', objectPage('kit.stats.sigma_clip', text));
    expect(copies.search('sigma_clip').map((hit) => hit.path)).toEqual(['api/kit.stats.sigma_clip.html']);
    const shared = `Provide rolling window calculations.${parameters}`;
    addHtml(copies, 'api/kit.Series.rolling.html', objectPage('kit.Series.rolling', shared, 'method'));
    addHtml(copies, 'api/kit.Frame.rolling.html', objectPage('kit.Frame.rolling', shared, 'method'));
    expect(copies.search('rolling').map((hit) => hit.path)).toHaveLength(2);
  });

  it("ranks a glossary's entry below the chapter on its term, unless the query asks what the term is", () => {
    const terms = new SearchIndex();
    addHtml(
      terms,
      'glossary.html',
      '<html><body><div role="main"><h1>Glossary</h1><dl class="glossary"><dt id="term-isolation-level">isolation level</dt>' +
        '<dd><p>How far transactions see each other; see Transactions.</p></dd></dl></div></body></html>',
    );
    addHtml(
      terms,
      'transactions.html',
      '<html><body><div role="main"><h1>Transactions</h1><p>Begin, commit, roll back.</p><section id="isolation"><h2>Isolation level</h2>' +
        '<p>Each level decides what a transaction sees of the others; the isolation level is set per connection.</p>' +
        '</section></div></body></html>',
    );
    expect(terms.search('isolation level')[0]?.path).toBe('transactions.html');
    expect(terms.search('what is an isolation level')[0]?.path).toBe('glossary.html');
  });
});

describe('titles that say the query', () => {
  it('ranks a page titled by the query above a section so titled on a page about something else', () => {
    const site = new SearchIndex();
    addHtml(
      site,
      'internal.html',
      '<html><body><div role="main"><h1>Internal classes</h1><p>Classes the models share.</p>' +
        '<section id="glm"><h2>Generalized linear model</h2><p>Generalized linear models, explained. Generalized linear models: ' +
        '<code>generalized_linear_model.GLM</code>, ' +
        '<code>generalized_linear_model.GLMResults</code>, <code>generalized_linear_model.Family</code>.</p></section>' +
        '</div></body></html>',
    );
    addHtml(site, 'glm.html', sphinxPage('Generalized linear models', 'A response from a family of distributions, fitted.'));
    expect(site.search('generalized linear models').map((hit) => hit.path)).toEqual(['glm.html', 'internal.html']);
  });

  it('ranks a page about a lone word (its title holds it, all its sections say it) with a section titled by it elsewhere', () => {
    const site = new SearchIndex();
    const section = (heading: string, text: string) => `<section id="${heading.length}"><h2>${heading}</h2><p>${text}</p></section>`;
    const steps = ['Installing', 'Configuring', 'Building', 'Theming', 'Deploying'].map((step) => section(step, `${step} the docs.`));
    const page = (title: string, sections: string[]) =>
      `<html><body><div role="main"><h1>${title}</h1>${sections.join('')}</div></body></html>`;
    addHtml(site, 'quickstart.html', page('Quickstart', [...steps, section('Intersphinx', 'Link to other projects.')]));
    const extension = [
      section('Configuration', 'Intersphinx reads a mapping of projects.'),
      section('Inventories', 'Intersphinx fetches each.'),
    ];
    addHtml(site, 'intersphinx.html', page('sphinx.ext.intersphinx – Link to other projects', extension));
    expect(site.search('intersph').map((hit) => hit.path)).toEqual(['intersphinx.html', 'quickstart.html']);
  });
});

describe('words as readers type them', () => {
  const paths = (index: SearchIndex, query: string) => index.search(query).map((hit) => hit.path);

  it('corrects a typo near the end of a word by the word as written, not its stem ("configuraton")', () => {
    const site = new SearchIndex();
    addHtml(site, 'configuration.html', sphinxPage('Configuration', 'The configuration file holds every setting.'));
    addHtml(site, 'install.html', sphinxPage('Install', 'Install it with pip.'));
    expect(paths(site, 'configuraton')[0]).toBe('configuration.html');
  });

  it('reads a word the stemmer cut that starts no word of the site as misspelt, not cut short ("enviroments")', () => {
    const site = new SearchIndex();
    addHtml(site, 'venv.html', sphinxPage('Environments', 'Each environment keeps its packages apart from the others.'));
    for (const n of [1, 2, 3])
      addHtml(site, `isolated${n}.html`, sphinxPage(`Isolated runs ${n}`, `Isolated, isolated and isolated again: run ${n}.`));
    // Words the stem "enviro" starts, in three sections and more, which "enviroments" starts none of.
    for (const n of [1, 2, 3]) addHtml(site, `sensors${n}.html`, sphinxPage(`Sensors ${n}`, `Environmental sensors, isolated: ${n}.`));
    expect(site.respelled('isolated enviroments')).toEqual(['enviroments']);
    expect(paths(site, 'isolated enviroments')[0]).toBe('venv.html');
  });

  it('corrects a typo whose first letters make another word of the site ("priorty", not "prior")', () => {
    const site = new SearchIndex();
    addHtml(site, 'routing.html', sphinxPage('Message priorities', 'Give each message a priority: higher ones are consumed first.'));
    for (const n of [1, 2, 3, 4])
      addHtml(site, `messages${n}.html`, sphinxPage(`Messages ${n}`, `Messages sent prior to step ${n}, and the prior state.`));
    expect(paths(site, 'priorty of messages')[0]).toBe('routing.html');
    expect(site.respelled('priorty of messages')).toEqual(['priorty']);
  });

  it('corrects a last word that starts no word of the site, whose first letters make another word ("app signlas", not "sign")', () => {
    const site = new SearchIndex();
    addHtml(site, 'signals.html', sphinxPage('Signals', 'Signals let the app run code when an event happens: connect a receiver.'));
    for (const n of [1, 2, 3, 4])
      addHtml(site, `security${n}.html`, sphinxPage(`Security ${n}`, `The app can sign messages: sign them with key ${n}.`));
    expect(site.respelled('app signlas')).toEqual(['signlas']);
    expect(paths(site, 'app signlas')[0]).toBe('signals.html');
    // Still a word cut short where the letters typed start a word of the site.
    expect(paths(site, 'app signa')[0]).toBe('signals.html');
  });

  it('corrects a slip that changes where the stemmer cuts the word ("sturve", stem "sturv", for "struve")', () => {
    const site = new SearchIndex();
    addHtml(site, 'struve.html', sphinxPage('Struve functions', 'The struve function of order v, and its modified form.'));
    addHtml(site, 'install.html', sphinxPage('Install', 'Install it with pip.'));
    expect(paths(site, 'sturve')[0]).toBe('struve.html');
  });

  it('reads a last word that starts no word of the site as misspelt in static mode too ("logging cookbok", not "cook…")', () => {
    const site = new SearchIndex();
    addHtml(site, 'cookbook.html', sphinxPage('Logging cookbook', 'Recipes: logging to a file, logging from threads.'));
    addHtml(site, 'logging.html', sphinxPage('Logging', 'The logging module and its loggers, logging levels and logging handlers.'));
    // The stem "cook" of the typo's first letters, in three sections and more, each saying "logging" too.
    for (const n of [1, 2, 3])
      addHtml(site, `terminal${n}.html`, sphinxPage(`Terminal ${n}`, `Cooked mode, cooked input and logging of mode ${n}.`));
    expect(site.respelled('logging cookbok')).toEqual(['cookbok']);
    expect(paths(site, 'logging cookbok')[0]).toBe('cookbook.html');
    site.finish();
    expect(summary(fetchedFor(smallParts(site), 'logging cookbok').search('logging cookbok'))).toEqual(
      summary(site.search('logging cookbok')),
    );
  });

  it('reads a word of letters then digits cut short as the start of the names it begins ("interp1" of `interp1d`)', () => {
    const site = new SearchIndex();
    addHtml(site, 'interp1d.html', sphinxPage('interp1d', 'Interpolate in 1-D.', [{ name: 'interp1d', text: 'An interpolant.' }]));
    addHtml(site, 'spline.html', sphinxPage('Splines', 'Spline interpolation of data, an interpolation in pieces.'));
    for (const query of ['interp1', 'interp1 interpolation']) {
      expect(paths(site, query)[0], query).toBe('interp1d.html');
      site.finish();
      expect(summary(fetchedFor(smallParts(site), query).search(query)), query).toEqual(summary(site.search(query)));
    }
  });

  it("finds another region's spelling as the same word", () => {
    const site = new SearchIndex();
    addHtml(site, 'behavior.html', sphinxPage('Default behavior', 'How the parser behaves by default.'));
    addHtml(site, 'scaling.html', sphinxPage('Scaling', 'Standardize each feature before fitting.'));
    addHtml(site, 'install.html', sphinxPage('Install', 'Install it with pip.'));
    expect(paths(site, 'behaviour')[0]).toBe('behavior.html');
    expect(paths(site, 'standardise features')[0]).toBe('scaling.html');
  });

  it("ranks another region's spelling as the site's own, by the titles that say it too", () => {
    const site = new SearchIndex();
    addHtml(site, 'glm.html', sphinxPage('Generalized linear models', 'Fit a family of models.'));
    const mixed = 'Generalized linear models with random effects: generalized linear models, generalized and linear, models.';
    addHtml(site, 'mixed.html', sphinxPage('Generalized linear mixed models', mixed));
    expect(paths(site, 'generalized linear models')[0]).toBe('glm.html');
    expect(paths(site, 'generalised linear models')).toEqual(paths(site, 'generalized linear models'));
    expect(site.respelled('generalised linear models')).toEqual(['generalised']);
  });

  it('reads a word the site has in no form as the one word it writes nearest, by every rule, as the word spelled right', () => {
    const site = new SearchIndex();
    addHtml(site, 'pacf.html', sphinxPage('Estimates', 'The partial autocorrelation of a series, lag by lag.'));
    const residuals = 'Partial residuals, partial plots; much later, in another part of this page, autocorrelation.';
    addHtml(site, 'residuals.html', sphinxPage('Residual plots', residuals));
    for (const n of [1, 2, 3]) addHtml(site, `acf${n}.html`, sphinxPage(`Series ${n}`, `The autocorrelation of series ${n}.`));
    expect(paths(site, 'partial autocorrelation')[0]).toBe('pacf.html');
    expect(paths(site, 'partial autocorelation')).toEqual(paths(site, 'partial autocorrelation'));
    expect(site.respelled('partial autocorelation')).toEqual(['autocorelation']);
  });

  it('prefers the correction the site uses often to a one-page oddity as near', () => {
    const site = new SearchIndex();
    addHtml(site, 'oddity.html', sphinxPage('Lamba', 'A misspelt heading.'));
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      addHtml(site, `lambda${n}.html`, sphinxPage(`Topic ${n}`, `Pass a lambda as the key of topic ${n}.`));
    expect(paths(site, 'lamda')[0]).toMatch(/^lambda\d+\.html$/);
    expect(paths(site, 'lamda')).not.toContain('oddity.html');
  });

  it('reads a typo as the spelling a slip readers often make reaches before a commoner one as many edits away ("tabel")', () => {
    const site = new SearchIndex();
    for (const n of [1, 2, 3])
      addHtml(site, `pivot${n}.html`, sphinxPage(`Pivot table ${n}`, `Reshape data into a pivot table, way ${n}.`));
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) addHtml(site, `axis${n}.html`, sphinxPage(`Axis ${n}`, `Give axis ${n} a label.`));
    // "table" by two neighbours swapped, "label" by another letter: one edit each, "label" on more pages.
    expect(paths(site, 'tabel')[0]).toMatch(/^pivot\d\.html$/);
    expect(paths(site, 'pivot tabel').slice(0, 3)).toEqual(paths(site, 'pivot table').slice(0, 3));
    expect(site.respelled('pivot tabel')).toEqual(['tabel']);
  });

  it('weighs a misspelt word the site lacks as the word it stands for', () => {
    const site = new SearchIndex();
    addHtml(site, 'acf.html', sphinxPage('Autocorrelation', 'Estimates the autocorrelation of a series.'));
    for (const n of [1, 2, 3, 4, 5, 6])
      addHtml(site, `function${n}.html`, sphinxPage(`Function ${n}`, `The function number ${n} and what it returns.`));
    expect(paths(site, 'autocorelation function')[0]).toBe('acf.html');
  });

  /** A site that writes "cross validation" apart, and once as one word. */
  function compoundSite(): SearchIndex {
    const site = new SearchIndex();
    addHtml(site, 'notes.html', sphinxPage('Notes', 'A note on crossvalidation in passing.'));
    addHtml(site, 'cross-validation.html', sphinxPage('Cross validation', 'Cross validation splits the data to validate a model.'));
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
      addHtml(site, `guide${n}.html`, sphinxPage(`Guide ${n}`, `A cross section of part ${n}; validation of the inputs.`));
    return site;
  }

  it('searches a word written as one in its parts when the site writes them apart', () => {
    const site = compoundSite();
    expect(paths(site, 'crossvalidation')[0]).toBe('cross-validation.html');
  });

  it('reads a word as the site writes it only once its own terms are fetched, not by a near word an earlier search fetched', () => {
    const site = new SearchIndex();
    addHtml(site, 'equations.html', sphinxPage('Differential equations', 'Solve a differential equation.'));
    addHtml(site, 'statistics.html', sphinxPage('Inferential statistics', 'Inferential tests of a sample.'));
    for (const n of [1, 2, 3]) addHtml(site, `guide${n}.html`, sphinxPage(`Guide ${n}`, `Differential and inferential, part ${n}.`));
    // Words that sort before "differenti", so that its terms part is not one that names in the query fetch.
    addHtml(site, 'fruit.html', sphinxPage('Fruit', 'Apples, bananas, cherries, carrots, beans, almonds, basil, cabbage and chard.'));
    site.finish();
    const partial = fetchedFor(smallParts(site), 'inferential tests');
    expect(paths(fetchedFor(smallParts(site), 'differential equation', partial), 'differential equation')).toEqual(
      paths(site, 'differential equation'),
    );
  });

  it.each([
    ['the parts of a word written as one', compoundSite, 'crossvalidation', 'cross-validation.html'],
    ['the name a misspelt name stands for', namesSite, 'drop_duplicats', 'api/Frame.drop_duplicates.html'],
  ])('finds %s from saved parts as from the whole index', (_, make, query, expected) => {
    const site = make();
    site.finish();
    // Small parts: the terms read ("cross" and "valid" of "crossvalidation") are in other terms parts than the query's.
    const partial = fetchedFor(smallParts(site), query);
    expect(paths(partial, query)).toEqual(paths(site, query));
    expect(paths(partial, query)[0]).toBe(expected);
  });

  it('corrects two words written as one when one of them is misspelt ("redirect handlr" for `RedirectHandler`)', () => {
    const site = new SearchIndex();
    const handler = { name: 'kit.RedirectHandler', type: 'class', text: 'Follows the redirects of a response.' };
    addHtml(site, 'api/redirect-handler.html', sphinxPage('kit.RedirectHandler', 'A handler of redirects.', [handler]));
    addHtml(site, 'dispatcher.html', sphinxPage('Dispatcher', 'Each redirect goes to a handler: the handler of a redirect follows it.'));
    for (const n of [1, 2, 3]) addHtml(site, `handlers${n}.html`, sphinxPage(`Handlers ${n}`, `A handler of step ${n}.`));
    expect(paths(site, 'redirect handlr')[0]).toBe('api/redirect-handler.html');
    expect(paths(site, 'redirect handler')[0]).toBe('api/redirect-handler.html');
  });

  it('prefers a title that says a word as typed to one that says another word of its stem', () => {
    const site = new SearchIndex();
    const differential = { name: 'kit.geometry.Differential', type: 'class', text: 'A differential form.' };
    const custom =
      '<html><body><div role="main"><section id="top"><h1>Custom functions</h1><p>Functions of your own, and what they define.</p>' +
      '<section id="differentiation"><h2>Differentiation</h2><p>Define fdiff to differentiate your function.</p></section>' +
      '</section></div></body></html>';
    addHtml(site, 'geometry.html', sphinxPage('Geometry', 'Forms on manifolds.', [differential]));
    addHtml(site, 'custom.html', custom);
    for (const n of [1, 2, 3])
      addHtml(site, `equations${n}.html`, sphinxPage(`Equations ${n}`, `Solving differential equations of order ${n}.`));
    expect(paths(site, 'differentiation')[0]).toBe('custom.html');
    expect(paths(site, 'differential')[0]).toBe('geometry.html');
  });

  it('reads a lone word typed in the plural as the concept a heading names so, not the class named in the singular', () => {
    const site = new SearchIndex();
    const text = 'A generator writes a message out as text. Each generator takes a policy; generators of mail.';
    const generator = { name: 'kit.mail.Generator', type: 'class', text };
    addHtml(site, 'mail.html', sphinxPage('Mail', 'Messages and their parts.', [generator]));
    const iterators =
      '<html><body><div role="main"><section id="top"><h1>Iterators</h1><p>Loops over values, one at a time.</p>' +
      '<section id="generators"><h2>Generators</h2><p>A function that yields values makes a generator.</p></section>' +
      '</section></div></body></html>';
    addHtml(site, 'iterators.html', iterators);
    for (const n of [1, 2, 3]) addHtml(site, `guide${n}.html`, sphinxPage(`Guide ${n}`, `Part ${n} of the guide, on loops.`));
    expect(paths(site, 'generators')[0]).toBe('iterators.html');
    expect(paths(site, 'Generator')[0]).toBe('mail.html');
  });

  /** A site with namesakes: `drop` and `drop_duplicates` on frames (which the guides talk about) and on columns. */
  function namesSite(): SearchIndex {
    const site = new SearchIndex();
    for (const owner of ['Frame', 'Column'])
      for (const [method, text] of [
        ['drop', 'Drop the rows or columns given, duplicated or not.'],
        ['drop_duplicates', 'Return the rows without the duplicates.'],
      ] as const)
        addHtml(
          site,
          `api/${owner}.${method}.html`,
          sphinxPage(`kit.${owner}.${method}`, text, [{ name: `kit.${owner}.${method}`, text }]),
        );
    for (const n of [1, 2, 3]) addHtml(site, `guide${n}.html`, sphinxPage(`Frames ${n}`, `A Frame holds rows; part ${n} drops some.`));
    addHtml(site, 'changes.html', sphinxPage('Changes', 'Version 3.9.0 drops duplicates faster.'));
    return site;
  }

  it('reads a misspelt name as the name the site has nearest, in the case typed: its exact names first, the central one first', () => {
    const site = namesSite();
    expect(paths(site, 'drop_duplicats').slice(0, 2)).toEqual(['api/Frame.drop_duplicates.html', 'api/Column.drop_duplicates.html']);
    expect(paths(site, 'Column.drop_duplicats')[0]).toBe('api/Column.drop_duplicates.html');
    expect(paths(site, 'kit.Frame.dorp_duplicates')[0]).toBe('api/Frame.drop_duplicates.html');
    expect(site.respelled('drop_duplicats')).toEqual(['drop_duplicats']);
    // A name the site has, or the start of one (being typed), is read as typed.
    expect(site.respelled('drop_duplicates')).toEqual([]);
    expect(paths(site, 'drop_dup')[0]).toBe('api/Frame.drop_duplicates.html');
    // A version number is no misspelt name: a release the site lacks is not another release.
    expect(site.respelled('changes in 1.9.0')).toEqual([]);
  });

  it('reads a typo as the one word near it that a slip readers often make reaches, by every rule ("form feild validation")', () => {
    const site = new SearchIndex();
    addHtml(site, 'validation.html', sphinxPage('Form and field validation', 'How a form checks what is entered.'));
    const fields = 'Each form field runs its validation: field validation, form validation, a field of a form, a form of fields. '.repeat(
      2,
    );
    for (const title of ['Form fields', 'Field validation', 'Form validation'])
      addHtml(site, `${title.toLowerCase().replace(' ', '-')}.html`, sphinxPage(title, fields));
    // "field" is its own stem, a term the index cannot tell from a stem that is no word; "feild" swaps two of its letters.
    expect(paths(site, 'form field validation')[0]).toBe('validation.html');
    expect(paths(site, 'form feild validation')).toEqual(paths(site, 'form field validation'));
    expect(site.respelled('form feild validation')).toEqual(['feild']);
  });

  it('reads a name typed in CamelCase with a letter wrong as the name the site writes so ("SkyCorod" for `SkyCoord`)', () => {
    const site = new SearchIndex();
    const point = { name: 'kit.SkyCoord', type: 'class', text: 'A point on the sky.', inFull: true };
    addHtml(site, 'api/SkyCoord.html', sphinxPage('kit.SkyCoord', 'A point on the sky.', [point]));
    for (const name of ['join_skycoord', 'pixel_to_skycoord', 'skycoord_to_pixel']) {
      const text = `Takes a skycoord and gives a skycoord back: ${name}, skycoord in, skycoord out.`;
      addHtml(site, `api/${name}.html`, sphinxPage(`kit.${name}`, text, [{ name: `kit.${name}`, type: 'function', text, inFull: true }]));
    }
    expect(paths(site, 'SkyCorod')[0]).toBe('api/SkyCoord.html');
    expect(paths(site, 'SkyCorod')).toEqual(paths(site, 'SkyCoord'));
    expect(site.respelled('SkyCorod')).toEqual(['SkyCorod']);
    // The same from the parts static mode fetches for it.
    expect(summary(fetchedFor(smallParts(site), 'SkyCorod').search('SkyCorod'))).toEqual(summary(site.search('SkyCorod')));
  });

  it('reads a word typed without the separators of a name the site keeps as the name ("todatetime" for `to_datetime`)', () => {
    const site = new SearchIndex();
    const convert = { name: 'kit.to_datetime', type: 'function', text: 'Converts a value.', inFull: true };
    addHtml(site, 'api/to_datetime.html', sphinxPage('kit.to_datetime', 'Converts a value.', [convert]));
    const lookup = { name: 'kit.get_object_or_404', type: 'function', text: 'Gets a row.', inFull: true };
    addHtml(site, 'api/get_object_or_404.html', sphinxPage('kit.get_object_or_404', 'Gets a row.', [lookup]));
    for (const topic of ['Datetime values', 'Datetime arithmetic', 'Datetime parsing'])
      addHtml(site, `${topic}.html`, sphinxPage(topic, 'A datetime to a datetime, a date to a date: datetime in, datetime out.'));
    expect(paths(site, 'todatetime')[0]).toBe('api/to_datetime.html');
    expect(paths(site, 'todatetime')).toEqual(paths(site, 'to_datetime'));
    expect(paths(site, 'getobjector404')[0]).toBe('api/get_object_or_404.html');
    expect(site.respelled('todatetime')).toEqual(['todatetime']);
    // A word the site writes is read as written, and one whose parts no name joins is no name.
    expect(site.respelled('datetime')).toEqual([]);
    expect(site.respelled('todatetimes')).not.toContain('to_datetimes');
    // The same from the parts static mode fetches for it.
    expect(summary(fetchedFor(smallParts(site), 'todatetime').search('todatetime'))).toEqual(summary(site.search('todatetime')));
  });

  it('names the words it reads as other spellings: typos, regional spellings, compounds; not words the site has, nor cut short', () => {
    const site = new SearchIndex();
    addHtml(site, 'configuration.html', sphinxPage('Configuration', 'The configuration file holds every setting.'));
    addHtml(site, 'scaling.html', sphinxPage('Scaling', 'Standardize each feature before fitting.'));
    addHtml(site, 'cross-validation.html', sphinxPage('Cross validation', 'Cross validation splits the data.'));
    for (const n of [1, 2, 3])
      addHtml(site, `guide${n}.html`, sphinxPage(`Guide ${n}`, `A cross section of the configuration; validation of the inputs.`));
    expect(site.respelled('configuraton file')).toEqual(['configuraton']);
    expect(site.respelled('standardise features')).toEqual(['standardise']);
    expect(site.respelled('crossvalidation')).toEqual(['crossvalidation']);
    expect(site.respelled('configuration file')).toEqual([]);
    expect(site.respelled('configura')).toEqual([]);
  });
});

describe('a word the stemmer cuts apart from its other forms', () => {
  it('finds and marks "Embedding" for "embed" in a query of several words (Porter: "embed" is `emb`, "embedding" `embed`)', () => {
    const site = new SearchIndex();
    addHtml(
      site,
      'server.html',
      markdownPage('Running a notebook server', [['Embedding the notebook in another website', 'Set the headers.']]),
    );
    addHtml(site, 'other.html', markdownPage('Notebook basics', [['Cells', 'The notebook holds cells; embed images in them.']]));
    site.finish();
    const hit = site.search('embed notebook').find((found) => found.path === 'server.html')!;
    const [block] = resultBlocks(hit);
    expect(block?.highlights.title).toEqual(['<span>Embedding</span> the <span>notebook</span> in another website']);
    const other = site.search('embed notebook').find((found) => found.path === 'other.html')!;
    expect(resultBlocks(other)[0]?.highlights.content[0]).toContain('<span>embed</span>');
  });
});

describe("a section's excerpt", () => {
  it("is its opening where its title says every word the search matched in it (django-filter's OrderingFilter)", () => {
    const site = new SearchIndex();
    const text = `Enable queryset ordering. As an argument, it takes the fields. ${'More text. '.repeat(20)}`;
    addHtml(
      site,
      'ref/filters.html',
      markdownPage('Filter Reference', [['OrderingFilter', `${text}o = OrderingFilter(fields=('username', 'account'))`]]),
    );
    addHtml(site, 'guide.html', markdownPage('Guide', [['Ordering', `${text}Use an OrderingFilter to sort the results.`]]));
    site.finish();
    const excerpt = (path: string) => resultBlocks(site.search('OrderingFilter').find((hit) => hit.path === path)!)[0]?.highlights;
    expect(excerpt('ref/filters.html')?.content[0]).toMatch(/^Enable queryset ordering\./);
    // A title that says less: the excerpt is where the text says the rest.
    expect(excerpt('guide.html')?.content[0]).toContain('Use an <span>OrderingFilter</span>');
  });
});

describe('parameters of an entry', () => {
  it("finds an entry by a numpydoc parameter's name, shown apart in excerpts, the answer's text the hosting service's", () => {
    const site = new SearchIndex();
    addHtml(
      site,
      'api/kit.frame.html',
      '<html><body><div role="main"><h1>kit.frame</h1><dl class="py function"><dt class="sig sig-object py" id="kit.frame">' +
        'frame(data)</dt><dd><p>Makes a frame.</p><dl class="field-list"><dt>Parameters<span class="colon">:</span></dt><dd><dl>' +
        '<dt><strong>columns</strong><span class="classifier">str or list</span></dt><dd><p>Field names.</p></dd>' +
        '</dl></dd></dl></dd></dl></div></body></html>',
    );
    for (const index of [site, loaded([...site.savedParts()])]) {
      const [hit] = index.search('columns');
      expect(hit?.sections[0]?.section.anchor).toBe('kit.frame');
      const [block] = resultBlocks(hit!);
      expect(block?.highlights.content).toEqual(['Makes a frame. Parameters: <span>columns</span> str or list Field names.']);
      expect(block?.content).toBe('Makes a frame.Parameters:columnsstr or listField names.');
    }
  });
});

describe('highlight', () => {
  it('wraps matched words in <span> and escapes everything else', () => {
    // Matched terms are stems: every form of the word is highlighted.
    expect(highlight('Use <b>Lease</b> & "leases"', new Set(['leas']))).toBe(
      'Use &lt;b&gt;<span>Lease</span>&lt;/b&gt; &amp; &quot;<span>leases</span>&quot;',
    );
  });

  it('marks only the parts of a name made of parts that the search matched', () => {
    const site = new SearchIndex();
    addHtml(
      site,
      'reference/kombu.html',
      '<html><body><div role="main"><h1>kombu</h1><dl class="py method"><dt class="sig sig-object py" ' +
        'id="kombu.connection.Connection.drain_events">kombu.connection.Connection.drain_events(**kwargs)</dt>' +
        '<dd><p>Wait for a single event from the server.</p></dd></dl></div></body></html>',
    );
    const name = 'kombu.connection.Connection.drain_events';
    const words = (query: string) => site.search(query)[0]!.matchedWords;
    expect(highlight(name, words('drain_events'))).toBe('kombu.connection.Connection.<span>drain_events</span>');
    // A dotted query marks the tail it names, once, and no part before it.
    expect(highlight(name, words('Connection.drain_events'))).toBe('kombu.connection.<span>Connection.drain_events</span>');
    expect(highlight(name, words('kombu.connection.Connection.drain_events'))).toBe(`<span>${name}</span>`);
    expect(highlight(`${name} drains`, words('drain'))).toBe('kombu.connection.Connection.<span>drain</span>_events <span>drains</span>');
    // A name's words likewise: the one the search matched, not the whole name.
    expect(highlight('register_with_event_loop(loop)', words('drain_events'))).toBe('register_with_<span>event</span>_loop(loop)');
  });

  it('cuts excerpts around the matches', () => {
    const text = `${'filler '.repeat(60)}the lease expires ${'filler '.repeat(60)}`;
    const [excerpt] = highlightExcerpts(text, new Set(['leas']));
    expect(excerpt).toContain('<span>lease</span>');
    expect(excerpt!.length).toBeLessThan(200);
  });

  it("cuts the first excerpt around the name typed where the text has it, not its words' first use (ipywidgets)", () => {
    const text =
      `Embedding Jupyter Widgets in Other Contexts: widgets can be embedded in static pages. ${'filler '.repeat(80)}` +
      'Widgets are set up once for the whole site, in the Sphinx configuration file conf.py, as follows: ' +
      'add jupyter_sphinx.embed_widgets to the enabled extensions.';
    const words = new Set(termsOf('jupyter_sphinx.embed_widgets'));
    const [first, ...others] = highlightExcerpts(text, words);
    expect(first).toContain('add <span>jupyter_sphinx.embed_widgets</span> to');
    expect(others[0]).toMatch(/^Embedding <span>Jupyter<\/span> <span>Widgets<\/span>/);
    expect(others.every((excerpt) => !excerpt.includes('embed_widgets') && !excerpt.includes('conf.py'))).toBe(true);
  });
});

describe('SearchIndex: stop words written in capitals', () => {
  const site = new SearchIndex();
  const pages: [string, string][] = [
    ['topics/lookups.html', markdownPage('Lookups', [['Complex filters', 'Filters are combined with OR by a lookup object.']])],
    [
      'topics/filters.html',
      markdownPage('Queries', [['Chaining filters', 'Filters can be combined or chained, and filters kept for later.']]),
    ],
    ['topics/joins.html', markdownPage('Conditions', [['Join conditions', 'A join names its condition after ON.']])],
    ['topics/relations.html', markdownPage('Relations', [['Joins', 'Join a table to join its related rows.']])],
    ['topics/tables.html', markdownPage('Tables', [['One table', 'One model is one table, and one row is one object.']])],
    ['tutorial/select.html', markdownPage('Selecting rows', [['The WHERE clause', 'Rows are kept by the criteria after WHERE.']])],
    ['core/clauses.html', markdownPage('Clause objects', [['Clause lists', 'A clause list holds clause elements, each a clause.']])],
  ];
  for (const [path, html] of pages) addHtml(site, path, html);
  site.finish();
  const first = (query: string) => site.search(query)[0]?.path;

  it('reads a stop word written in capitals as the keyword it is (SQL’s, logic’s), the same word in lower case as before', () => {
    expect(first('combine filters with OR')).toBe('topics/lookups.html');
    expect(first('combine filters with or')).toBe('topics/filters.html');
  });

  it('keeps SQL’s ON apart from "one", whose stem is "on"', () => {
    expect(first('join ON')).toBe('topics/joins.html');
    expect(termsOf('ON')).not.toContain(termsOf('one')[0]);
    expect(first('one table')).toBe('topics/tables.html');
  });

  it('reads a title whose keyword the reader wrote as a stop word as saying the query: "where clause"', () => {
    expect(first('where clause')).toBe('tutorial/select.html');
  });

  it('reads no keyword in a query written in capitals throughout', () => {
    expect(first('FILTERS WITH OR')).toBe(first('filters with or'));
  });
});
