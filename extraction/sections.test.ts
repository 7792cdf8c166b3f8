import { describe, expect, it } from 'vitest';
import { demoPage } from '../test/fixtures/demo.ts';
import { normalizeSpace, splitSections } from './sections.ts';

describe('splitSections', () => {
  it('splits a Sphinx API page into documented objects and headings', () => {
    const { title, sections } = splitSections(demoPage('aurora/en/latest/api/scheduler.html'), 'api/scheduler.html');
    // Headed by the short name and opening with the class's definition: titled by the class's full name.
    expect(title).toBe('aurora.Scheduler');
    const addJob = sections.find((section) => section.id === 'aurora.Scheduler.add_job')!;
    expect(addJob.role).toBe('py:method');
    expect(addJob.title).toMatch(/^add_job\(func, trigger/);
    expect(addJob.content).toContain('Register func to run whenever trigger fires.');
    // A class's methods are sections of their own, not part of the class's text.
    const scheduler = sections.find((section) => section.id === 'aurora.Scheduler')!;
    expect(scheduler.role).toBe('py:class');
    expect(scheduler.content).not.toContain('Register func to run');
    expect(sections.find((section) => section.id === 'aurora.every')?.role).toBe('py:function');
  });

  it('keeps the title the reader sees on a page that tells of the thing before its class (ezdxf\'s "Hatch")', () => {
    const page = (between: string) =>
      splitSections(
        `<html><body><div role="main"><section id="hatch"><h1>Hatch</h1>${between}<dl class="py class">` +
          '<dt class="sig sig-object py" id="ezdxf.entities.Hatch"><em class="property">class </em>' +
          '<span class="sig-prename descclassname">ezdxf.entities.</span><span class="sig-name descname">Hatch</span></dt>' +
          '<dd><p>Subclass of DXFGraphic.</p></dd></dl></section></div></body></html>',
        'dxfentities/hatch.html',
      ).title;
    expect(page('<p>The HATCH entity fills an enclosed area with a pattern.</p>')).toBe('Hatch');
    // Opening with the class (an empty anchor between): the class's page.
    expect(page('<span id="module-ezdxf.entities"></span>')).toBe('ezdxf.entities.Hatch');
  });

  it("is titled by its <title>'s page part where its <h1> is the site's banner, which no link leads to (fastify)", () => {
    const page = (heading: string, title = 'Reply — Fastify v5 documentation') =>
      splitSections(
        `<html><head><title>${title}</title></head><body><div role="main">${heading}` +
          '<h2 id="introduction">Introduction</h2><p>The second argument of the handler is Reply.</p></div></body></html>',
        'Reference/Reply/',
      ).title;
    expect(page('<h1 align="center">Fastify</h1>')).toBe('Reply');
    // A heading a link leads to is the page's (a README's "# undici" under the nav's "Home"), as is one the page part says.
    expect(page('<h1 id="fastify">Fastify</h1>', 'Home - Fastify v5 documentation')).toBe('Fastify');
    expect(page('<h1>Reply</h1>')).toBe('Reply');
    expect(page('<h1>Fastify</h1>', 'Fastify v5 documentation')).toBe('Fastify');
  });

  // The hosting service runs blocks together (the conformance cases); a reader sees them apart.
  it("reads an entry's parameters as a reader sees them, and as the hosting service: numpydoc's, Napoleon's, autodoc's tables", () => {
    const entry = (body: string) =>
      splitSections(
        '<html><body><div role="main"><h1>kit.frame</h1><dl class="py function"><dt class="sig sig-object py" id="kit.frame">' +
          '<span class="sig-prename descclassname">kit.</span><span class="sig-name descname">frame</span>' +
          '<span class="sig-paren">(</span><em class="sig-param">columns</em><span class="sig-paren">)</span></dt>' +
          `<dd><p>Makes a frame.</p>${body}</dd></dl></div></body></html>`,
        'kit.frame.html',
      ).sections.find((section) => section.id === 'kit.frame')!;
    // numpydoc: a term of the parameter's name and its classifier (its type), then the description.
    const numpydoc = entry(
      '<dl class="field-list"><dt class="field-odd">Parameters<span class="colon">:</span></dt><dd class="field-odd"><dl>' +
        '<dt><strong>columns</strong><span class="classifier">str or list, default None</span></dt><dd><p>Field names.</p></dd>' +
        '<dt><strong>copy</strong><span class="classifier">bool</span></dt><dd><p>Copy the data.</p></dd></dl></dd></dl>',
    );
    expect(numpydoc.title).toBe('kit.frame(columns)');
    expect(numpydoc.content).toBe('Makes a frame.Parameters:columnsstr or list, default NoneField names.copyboolCopy the data.');
    expect(numpydoc.text).toBe('Makes a frame. Parameters: columns str or list, default None Field names. copy bool Copy the data.');
    // Napoleon's Google style: a field list of list items.
    const napoleon = entry(
      '<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt><dd class="field-odd">' +
        '<ul class="simple"><li><p><strong>columns</strong> (<em>str</em>) – Field names.</p></li>' +
        '<li><p><strong>copy</strong> (<em>bool</em>) – Copy the data.</p></li></ul></dd>' +
        '<dt class="field-even">Returns<span class="colon">:</span></dt><dd class="field-even"><p>A frame.</p></dd></dl>',
    );
    expect(napoleon.content).toBe('Makes a frame.Parameters:columns (str) – Field names.copy (bool) – Copy the data.Returns:A frame.');
    expect(napoleon.text).toBe('Makes a frame. Parameters: columns (str) – Field names. copy (bool) – Copy the data. Returns: A frame.');
    // Sphinx before version 5 left the label's colon to the stylesheet (ezdxf's "Parameters points – iterable…").
    const older = entry(
      '<dl class="field-list simple"><dt class="field-odd">Parameters</dt><dd class="field-odd">' +
        '<p><strong>columns</strong> (<em>str</em>) – Field names.</p></dd></dl>',
    );
    expect(older.content).toBe('Makes a frame.Parameterscolumns (str) – Field names.');
    expect(older.text).toBe('Makes a frame. Parameters: columns (str) – Field names.');
    // Sphinx's HTML before version 2: a field list as a table.
    const table = entry(
      '<table class="docutils field-list"><tbody valign="top"><tr class="field-odd field"><th class="field-name">Parameters:</th>' +
        '<td class="field-body"><strong>columns</strong> – Field names.</td></tr></tbody></table>',
    );
    expect(table.content).toBe('Makes a frame.Parameters:columns – Field names.');
    expect(table.text).toBe('Makes a frame. Parameters: columns – Field names.');
  });

  it("keeps a viewcode label in an entry's title, as the hosting service does, and out of text (fontTools' unindexed classes)", () => {
    const source = (name: string) =>
      `<a class="reference internal" href="_modules/kit.html#${name}"><span class="viewcode-link">[source]</span></a>`;
    const { sections } = splitSections(
      '<html><body><div role="main"><h1>Tables</h1><section id="metrics"><h2>Metrics</h2>' +
        `<dl class="py class"><dt class="sig sig-object py"><em>class</em> kit.BigMetrics${source('BigMetrics')}</dt>` +
        '<dd><p>Big glyph metrics.</p></dd></dl>' +
        `<dl class="py function"><dt class="sig sig-object py" id="kit.measure">kit.measure()${source('measure')}</dt>` +
        '<dd><p>Measures a glyph.</p></dd></dl></section></div></body></html>',
      'tables.html',
    );
    const metrics = sections.find((section) => section.id === 'metrics')!;
    expect(metrics.text).toBe('class kit.BigMetrics Big glyph metrics.');
    expect(metrics.content).not.toContain('[source]');
    expect(sections.find((section) => section.id === 'kit.measure')!.title).toBe('kit.measure()[source]');
  });

  it('indexes glossary terms and configuration values with their roles', () => {
    const glossary = splitSections(demoPage('aurora/en/latest/glossary.html'), 'glossary.html').sections;
    expect(glossary.find((section) => section.id === 'term-lease')).toMatchObject({ title: 'lease', role: 'std:term' });
    const configuration = splitSections(demoPage('aurora/en/latest/guides/configuration.html'), 'guides/configuration.html').sections;
    expect(configuration.find((section) => section.id === 'confval-timezone')).toMatchObject({ title: 'timezone', role: 'std:confval' });
  });

  it('gives each heading the text up to the next one, without navigation or permalinks', () => {
    const { sections } = splitSections(demoPage('aurora/en/latest/installation.html'), 'installation.html');
    const titles = sections.map((section) => section.title);
    expect(titles).toEqual([
      'Installation',
      'Installing from the package index',
      'Optional extras',
      'Installing from source',
      'Verifying the installation',
    ]);
    expect(sections[1]!.content).toMatch(/^Install the latest release with pip: \$ python -m pip install aurora-scheduler/);
    expect(sections.every((section) => !section.content.includes('¶') && !section.content.includes('Navigation'))).toBe(true);
  });

  it('splits an MkDocs material page', () => {
    const { title, sections } = splitSections(demoPage('skyline/en/latest/configuration/index.html'), 'configuration/index.html');
    expect(title).toBe('Configuration');
    expect(sections.map((section) => section.id)).toEqual(['configuration', 'settings', 'example']);
    expect(sections[1]!.content).toMatch(/^listen Address and port to listen on\. Default :8080\. retention_days/);
  });

  it('keeps content before the first heading under the page title', () => {
    const { sections } = splitSections(
      '<html><head><title>T</title></head><body><main>Intro text.<h2 id="a">A</h2>More.</main></body></html>',
      'x.html',
    );
    expect(sections).toEqual([
      { id: '', title: 'T', content: 'Intro text.', text: 'Intro text.' },
      { id: 'a', title: 'A', content: 'More.', text: 'More.' },
    ]);
  });

  it("keeps the text before a heading astray late in a page (Black's Markdown read as reStructuredText)", () => {
    const prose = (words: string) => `<p>${words} ${'Black reads the configuration from pyproject.toml in the project. '.repeat(6)}</p>`;
    const { sections } = splitSections(
      `<html><head><title>)</title></head><body><div class="body" role="main">
      <p># The basics</p>${prose('Foundational knowledge.')}${prose('Command line options.')}
      <section id="id21"><h1>)</h1><p>&lt;/details&gt;</p><p>### Lookup hierarchy</p></section>
      </div></body></html>`,
      'the_basics.html',
    );
    expect(sections.map((section) => section.content).join(' ')).toContain('Foundational knowledge. Black reads');
    expect(sections.map((section) => section.content).join(' ')).toContain('Command line options.');
  });

  it("measures how much of a page is entries led by links to other pages (an overview's summary table), whatever their notes", () => {
    const rows = ['butter', 'cheby1', 'ellip']
      .map(
        (name) =>
          `<tr><td><a href="generated/kit.${name}.html">${name}</a>(N, Wn[, btype])</td>` +
          `<td>Designs a ${name} filter of any order.</td></tr>`,
      )
      .join('');
    const overview = splitSections(
      `<html><body><main><h1>Signal</h1><h2>Filter design</h2><table>${rows}</table></main></body></html>`,
      'signal.html',
    );
    expect(overview.entryShare).toBeGreaterThan(0.8);
    // A table of contents of the page itself is no overview of others; nor is prose with links in it.
    const contents = ['Chains', 'Groups', 'Chords'].map((name) => `<li><a href="#${name}">${name} of work, in detail</a></li>`).join('');
    const guide = splitSections(
      `<html><body><main><h1>Canvas</h1><ul>${contents}</ul>` +
        '<p>A <a href="chains.html">chain</a> links work together: each step runs after the one before it.</p></main></body></html>',
      'canvas.html',
    );
    expect(guide.entryShare).toBe(0);
  });
});

describe('normalizeSpace', () => {
  it('collapses every run of white space to one space, a single space kept, and trims the ends', () => {
    expect(normalizeSpace(' a\tb  c\n\nd\u00a0e \u2003f\r\ng ')).toBe('a b c d e f g');
    expect(normalizeSpace('a\u00a0b\u2003c\fd')).toBe('a b c d');
    expect(normalizeSpace('already one space apart')).toBe('already one space apart');
    expect(normalizeSpace('\n \t')).toBe('');
  });
});
