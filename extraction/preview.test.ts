import { readFileSync } from 'node:fs';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { demoPage } from '../test/fixtures/demo.ts';
import { extractSection } from './find-section.ts';
import { descendants, parseFragment, parseHtml, toHtml } from './html/parse.ts';
import { cutFromListing, DEFAULT_PREVIEW_LIMITS, previewOf, previewOfElement, previewOfTarget } from './preview.ts';
import { splitSections } from './sections.ts';

const base = 'https://docs.example.org/en/latest/';

function section(path: string, fragment: string): string {
  return extractSection(parseHtml(demoPage(`aurora/en/latest/${path}`)), `${base}${path}`, { fragment, doctool: 'sphinx' })!;
}

describe('previewOf', () => {
  it('titles a glossary term by the term and shows its definition', () => {
    const preview = previewOf(section('glossary.html', 'term-lease'));
    expect(preview.title).toBe('lease');
    expect(preview.content).toContain('A time-limited claim of a worker on a run.');
    expect(preview.content).not.toContain('<dt');
    expect(preview.content).not.toContain('headerlink');
  });

  it('titles an API entry by its name (a method with its class) and keeps the signature first', () => {
    const preview = previewOf(section('api/scheduler.html', 'aurora.Scheduler.add_job'));
    expect(preview.title).toBe('Scheduler.add_job');
    // In its list: a <dt> alone is an accessibility error (axe's `dlitem`).
    expect(preview.content).toMatch(/^<dl><dt class="sig sig-object py"[\s\S]*<\/dt><dd>[\s\S]*<\/dd><\/dl>$/);
  });

  it('takes the heading as title and the first blocks of a long section, flagged as truncated', () => {
    const html = extractSection(parseHtml(demoPage('aurora/en/latest/architecture.html')), `${base}architecture.html`, {})!;
    const preview = previewOf(html, { limits: { maxBlocks: 2, maxChars: 4000 } });
    expect(preview.title).toBe('Architecture');
    expect(preview.truncated).toBe(true);
    expect(preview.content).toMatch(/^<p>This page explains how the parts of Aurora fit together/);
    expect(preview.content).not.toContain('The scheduler loop');
  });

  it("keeps a field list's kind where it shows only its beginning (Flask's register_error_handler)", () => {
    const types = 'Union[Type[Exception], int], '.repeat(60);
    const entry =
      '<dl class="py method"><dt class="sig sig-object py" id="register"><span class="sig-name descname">register</span>()</dt>' +
      '<dd><p>Registers a handler.</p><dl class="field-list simple"><dt class="field-odd">Parameters</dt>' +
      `<dd class="field-odd"><p>code (${types}) – the code.</p></dd></dl></dd></dl>`;
    const preview = previewOf(entry, { limits: { maxBlocks: 3, maxChars: 1000 } });
    expect(preview.truncated).toBe(true);
    const fieldList = /<dd><p>Registers a handler.<\/p>\n<dl class="field-list simple"><dt class="field-odd">Parameters<\/dt><dd>/;
    expect(preview.content).toMatch(fieldList);
  });

  it("shows a signature too large by its beginning, and the entry's description after it (Dask's LocalCluster)", () => {
    const parameter = (name: string) =>
      `<em class="sig-param"><span class="n"><span class="pre">${name}</span></span><span class="o"><span class="pre">=</span></span>` +
      '<span class="default_value"><span class="pre">None</span></span></em>';
    const names = Array.from({ length: 40 }, (_, index) => `option_${index}`);
    const entry =
      '<dl class="py class"><dt class="sig sig-object py" id="LocalCluster"><em class="property">class </em>' +
      `<span class="sig-name descname">LocalCluster</span>(${names.map(parameter).join(', ')})</dt>` +
      '<dd><p>Create local Scheduler and Workers</p><p>This creates a cluster on the local machine.</p></dd></dl>';
    const preview = previewOf(entry);
    expect(preview.title).toBe('LocalCluster');
    const cut = /^<dl><dt class="sig sig-object py">class LocalCluster\(option_0=None, option_1=None, [^<]*…<\/dt><dd>/;
    expect(preview.content).toMatch(cut);
    expect(preview.content).toContain('<p>Create local Scheduler and Workers</p>');
    expect(preview.content).toContain('This creates a cluster on the local machine.');
  });

  it("titles a citation by its label, without the numbered places it is cited from (MDAnalysis' older docutils)", () => {
    const page = parseHtml(
      `<html><head><title>MSD</title></head><body><div role="main"><section id="msd"><h1>MSD</h1>
      <p>As computed in <a class="reference internal" href="#maginn2018" id="id1"><span>[Maginn2018]</span></a>.</p>
      <dl class="citation">
      <dt class="label" id="maginn2018"><span class="brackets">Maginn2018</span><span class="fn-backref">(<a href="#id1">1</a>,<a
        href="#id6">2</a>,<a href="#id8">3</a>)</span></dt>
      <dd><p>Edward J. Maginn et al. Best practices for computing transport properties.</p></dd>
      <dt class="label" id="yeh2004"><span class="brackets"><a class="fn-backref" href="#id7">Yeh2004</a></span></dt>
      <dd><p>In-Chul Yeh and Gerhard Hummer. System-size dependence of diffusion coefficients.</p></dd>
      </dl></section></div></body></html>`,
    );
    const title = (id: string) => previewOfTarget(page, id, 'https://docs.example.org/en/latest/msd.html')!.title;
    expect([title('maginn2018'), title('yeh2004')]).toEqual(['Maginn2018', 'Yeh2004']);
    expect(previewOfTarget(page, 'maginn2018', 'https://docs.example.org/en/latest/msd.html')!.content).toContain('Best practices');
  });

  it("opens with the page's text, not the fields it opens with (MDAnalysis' authors); an entry keeps its own fields", () => {
    const module = `<section id="msd"><h1>Mean Squared Displacement</h1>
      <dl class="field-list simple"><dt class="field-odd">Authors</dt><dd class="field-odd"><p>Hugo MacDermott-Opeskin</p></dd>
      <dt class="field-even">Year</dt><dd class="field-even"><p>2020</p></dd>
      <dt class="field-odd">Copyright</dt><dd class="field-odd"><p>GNU Public License v2</p></dd></dl>
      <p>This module implements the calculation of Mean Squared Displacements (MSDs) by the Einstein relation.</p></section>`;
    expect(previewOf(module).content).toMatch(/^<p>This module implements/);
    // Cut from cryptography's X448 page: a class whose method's fields come first, before its example.
    const method = (name: string, fields: string) => `<dl class="py method"><dt class="sig sig-object py"
      id="X448PrivateKey.${name}"><em class="property">classmethod </em><span class="sig-name descname"><span class="pre">${name}</span>
      </span>()</dt><dd>${fields}</dd></dl>`;
    const entry = `<dl class="py class"><dt class="sig sig-object py" id="X448PrivateKey"><em class="property">class </em>
      <span class="sig-name descname"><span class="pre">X448PrivateKey</span></span></dt><dd>
      <div class="versionadded"><p><span class="versionmodified added">New in version 2.5.</span></p></div>
      ${method('generate', '<p>Generate an X448 private key.</p><dl><dt>Returns</dt><dd><p>X448PrivateKey</p></dd></dl>')}
      ${method(
        'from_private_bytes',
        `<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt><dd class="field-odd">
        <p><strong>data</strong> (bytes-like) – 56 byte private key.</p></dd><dt class="field-even">Returns<span class="colon">:</span>
        </dt><dd class="field-even"><p>X448PrivateKey</p></dd></dl>
        <div class="highlight"><pre>${'&gt;&gt;&gt; private_key = x448.X448PrivateKey.generate()\n'.repeat(100)}</pre></div>`,
      )}</dd></dl>`;
    const page = parseHtml(
      `<html><body><div role="main"><section id="x448"><h1>X448 key exchange</h1>${entry}</section></div></body></html>`,
    );
    expect(previewOfTarget(page, 'X448PrivateKey', 'https://docs.example.org/en/latest/x448.html')!.content).toContain(
      '56 byte private key.',
    );
  });

  /**
   * The content of the preview of `fragment` on a real-docs fixture, both ways: read on the page, and of the section's
   * copy as the hosting service answers it for a Sphinx page (an API entry's term with its definition).
   */
  function bothWays(fixture: string, fragment: string): string[] {
    const url = `https://docs.example.org/en/latest/${encodeURI(fixture)}`;
    const page = parseHtml(readFileSync(new URL(`../test/fixtures/real-docs/${fixture}`, import.meta.url), 'utf8'));
    const copy = extractSection(page, url, { fragment, doctool: 'sphinx' })!;
    return [previewOfTarget(page, fragment, url)!.content, previewOf(copy, { pageUrl: url, fragment }).content];
  }

  it("leaves out the page's style attributes, which a strict style-src would report (natsort's table widths)", () => {
    for (const content of bothWays('natsort/api.html', 'help-with-type-hinting')) {
      expect(content).toContain('<col>');
      expect(content).not.toContain('style');
    }
  });

  it("shows a list too large for the preview as its first items, one apiece (django-tables2's twenty parameters)", () => {
    for (const content of bothWays('django-tables2/api-reference.html', 'django_tables2.tables.Table')) {
      const items = content.match(/<li>/g) ?? [];
      expect(items.length).toBeGreaterThan(3);
      expect(content).toContain('<li><p><strong>data</strong>');
      expect(content).toContain('<li><p><strong>order_by</strong>');
      expect(content.length).toBeLessThanOrEqual(DEFAULT_PREVIEW_LIMITS.maxChars);
    }
  });

  it("shows the beginning of a list's first item too large for the preview: its first blocks, or its text cut", () => {
    const limits = { maxBlocks: 3, maxChars: 1200 };
    const cells = Array.from({ length: 40 }, (_, n) => `<li><p>cell ${n} – table/tbody/tr/td elements</p></li>`).join('');
    const ofBlocks = `<ul><li><p><strong>attrs</strong> (dict) – HTML attributes for the column's elements.</p>
      <p>By default a column supports:</p><ul>${cells}</ul></li><li><p>order_by</p></li></ul>`;
    const blocks = previewOf(`<section id="x"><h2>Parameters</h2>${ofBlocks}</section>`, { limits }).content;
    expect(blocks).toMatch(/^<ul><li><p><strong>attrs<\/strong>/);
    expect(blocks).toContain('<li><p>cell 0 – table/tbody/tr/td elements</p></li>');
    expect(blocks).not.toContain('order_by');
    const text = previewOf(`<section id="x"><h2>Steps</h2><ol start="3"><li>Run ${'the build '.repeat(300)}</li></ol></section>`, {
      limits,
    }).content;
    expect(text).toMatch(/^<ol start="3"><li>Run the build the build .*…<\/li><\/ol>$/);
  });

  it("leaves out a notebook's execution prompts, which say nothing of the cell (nbsphinx's `[2]:`)", () => {
    for (const content of bothWays('notebook/Running Code.html', 'Code-cells-allow-you-to-enter-and-run-code')) {
      expect(content).toContain('<span class="mi">10</span>');
      expect(content).not.toMatch(/\[\d+\]:/);
    }
  });

  it("titles terms documented together by the one linked to, with their shared description (Logbook's levels)", () => {
    const url = 'https://docs.example.org/en/latest/api/base.html';
    const page = parseHtml(readFileSync(new URL('../test/fixtures/real-docs/logbook/base.html', import.meta.url), 'utf8'));
    const fromPage = previewOfTarget(page, 'logbook.WARNING', url)!;
    // The whole list, as a section's copy holds it.
    const list = [...descendants(page.document)].find((element) => element.attribs.id === 'logbook.WARNING')!.parent as Element;
    const fromCopy = previewOf(toHtml(list), { fragment: 'logbook.WARNING' });
    for (const preview of [fromPage, fromCopy]) {
      expect(preview.title).toBe('logbook.WARNING');
      expect(preview.content).toContain('The log level constants');
    }
    expect(previewOfTarget(page, 'logbook.CRITICAL', url)!.title).toBe('logbook.CRITICAL');
  });

  it("titles a block right under a heading, with no title of its own, by the heading (jsonpickle's `git clone` listing)", () => {
    const url = 'https://docs.example.org/en/latest/contrib.html';
    const page = parseHtml(readFileSync(new URL('../test/fixtures/real-docs/jsonpickle/contrib.html', import.meta.url), 'utf8'));
    const preview = previewOfTarget(page, 'jsonpickle-contrib-checkout', url)!;
    expect(preview.title).toBe('Get the Code');
    expect(preview.content).toContain('git</span> <span class="n">clone');
  });

  it('bounds the size even when the first block alone is too large', () => {
    const code = `<section id="x"><h2>Listing</h2><pre>${'line of code\n'.repeat(2000)}</pre></section>`;
    const preview = previewOf(code, { limits: { maxBlocks: 3, maxChars: 1000 } });
    expect(preview.title).toBe('Listing');
    expect(preview.content.length).toBeLessThanOrEqual(1000);
    expect(preview.content).toMatch(/^<pre>line of code/);
    expect(preview.truncated).toBe(true);
  });
});

describe('previewOf a whole page', () => {
  it.each([
    {
      // Beautiful Soup's manual: an <h1> for each top-level section; the preview reads on into the next.
      layout: 'several top-level sections, by the first',
      page:
        '<div role="main"><section id="manual"><span id="top"></span><h1>Beautiful Soup Documentation</h1>' +
        '<p>Beautiful Soup is a library for pulling data out of HTML files.</p></section>' +
        '<section id="quick-start"><h1>Quick Start</h1><p>Here is an HTML document.</p></section></div>',
      title: 'Beautiful Soup Documentation',
      opening: /^<p>Beautiful Soup is a library[\s\S]*Quick Start/,
    },
    {
      // pygame's tutorials: the heading in a section in a section, a line after them.
      layout: 'sections in sections beside a line after them, by the heading they open with',
      page:
        '<div role="main"><section id="intro"><section id="python-pygame-introduction"><h2>Python Pygame Introduction</h2>' +
        '<p>This article is an introduction to the pygame library.</p></section></section>' +
        '<p class="note">Last updated by the maintainers.</p></div>',
      title: 'Python Pygame Introduction',
      opening: /^<p>This article is an introduction/,
    },
    {
      // Tornado's home page: its heading is the project's logo, named by its alt text.
      layout: 'a logo for its heading, by the logo’s text',
      page:
        '<div role="main"><h1><img alt="Tornado Web Server" src="_images/tornado.png"></h1>' +
        '<p>Tornado is a Python web framework.</p><section id="quick-links"><h2>Quick links</h2></section></div>',
      title: 'Tornado Web Server',
      opening: /^<p>Tornado is a Python web framework/,
    },
  ])('titles a page of $layout', ({ page, title, opening }) => {
    const preview = previewOf(page);
    expect(preview.title).toBe(title);
    expect(preview.content).toMatch(opening);
  });
});

describe('previewOfTarget', () => {
  it('gives a MkDocs heading the blocks under it, up to the next heading of its rank', () => {
    const html = demoPage('skyline/en/latest/faq/index.html');
    const page = parseHtml(html);
    const headings = [...html.matchAll(/<h([23]) id="([^"]+)"/g)];
    const [, rank, id] = headings[0]!;
    const preview = previewOfTarget(page, id!, 'https://docs.example.org/en/latest/faq/')!;
    expect(preview.title.length).toBeGreaterThan(0);
    expect(preview.content.length).toBeGreaterThan(0);
    const next = headings.find(([, otherRank], index) => index > 0 && Number(otherRank) <= Number(rank));
    if (next) expect(preview.content).not.toContain(`id="${next[2]}"`);
    expect(previewOfTarget(page, 'no-such-id', 'https://docs.example.org/')).toBeNull();
  });

  const page = parseHtml(`<html><body><div role="main"><section id="s-intro"><span id="intro"></span><h2>Intro</h2><hr>
    <p>First words of the section.</p></section>
    <p><span class="target" id="index-3"></span>Indexed paragraph text.</p>
    <section id="s-next"><span id="label"></span><span id="label-2"></span><h2>Next</h2><p>Text of next.</p></section>
    <a href="#s-next" id="toc-next">Next</a>
    <dl><dt id="cmd">cmd [options]</dt><dd></dd></dl><p>Runs the command.</p>
    <h2>Roles</h2><p>These roles refer to objects:</p>
    <dl class="role"><dt id="role-a">:a:</dt><dd></dd></dl><dl class="role"><dt id="role-b">:b:</dt><dd></dd></dl>
    <dl class="option"><dt id="opt-x">-x</dt><dd></dd></dl>
    <dl class="option"><dt id="opt-y">-y</dt><dd><p>Both options turn tracing on.</p></dd></dl>
    <table><tr><td><p><span id="speed">speed</span></p></td><td><p>m/s</p></td><td><p>velocity</p></td></tr></table>
    <table><tr><td><a id="fst_err_body_too_large">FST_ERR_CTP_BODY_TOO_LARGE</a></td><td>The body is too large.</td></tr></table>
    <h3 id="handlertimeout">handlerTimeout</h3><p><a id="factory-handler-timeout"></a></p><ul><li>Default: 0</li></ul>
    <p>The longest a request may take.</p><h3 id="other">other</h3><p>Other text.</p>
    <section id="subset"><h2>subset</h2><div class="toctree-wrapper"><ul><li><a href="cff.html">cff</a></li></ul></div>
    <span class="target" id="module-kit.subset"></span><p>pyftsubset – subsetter.</p><p>It accepts any font file.</p></section>
    <section id="using"><h2>Using</h2><div class="toctree-wrapper"><ul><li><a href="hub.html">Hub</a></li></ul></div>
    <span class="target" id="performance"></span></section><section id="reference"><h2>Reference</h2><p>Classes.</p></section>
  </div></body></html>`);
  const preview = (fragment: string) => previewOfTarget(page, fragment, 'https://docs.example.org/page.html')!;

  it('previews what an empty anchor labels: the section of the heading after it, or its paragraph', () => {
    expect(preview('label')).toMatchObject({ title: 'Next' });
    expect(preview('label').content).toContain('Text of next.');
    expect(preview('index-3').content).toContain('Indexed paragraph text.');
    // After the heading and its table of contents (fontTools' module pages): the section, not its first paragraph alone.
    // At the section's end, after its table of contents (Astropy's samp page): what follows.
    expect(preview('performance')).toMatchObject({ title: 'Reference' });
    expect(preview('module-kit.subset').content).not.toContain('hub.html');
    expect(preview('module-kit.subset').content).not.toContain('cff.html');
    expect(preview('module-kit.subset')).toMatchObject({ title: 'subset', content: expect.stringContaining('It accepts any font file.') });
    // Alone in a paragraph under a heading (Python-Markdown's raw `<a id>` line: fastify's options): the heading's section.
    expect(preview('factory-handler-timeout')).toMatchObject({ title: 'handlerTimeout', content: expect.stringContaining('may take') });
    expect(preview('factory-handler-timeout').content).not.toContain('Other text.');
  });

  it('shows the first paragraph of a section whose heading is followed by a rule', () => {
    expect(preview('intro')).toMatchObject({ title: 'Intro' });
    expect(preview('intro').content).toContain('First words of the section.');
  });

  it('describes an entry with an empty definition by the text after its list', () => {
    expect(preview('cmd').title).toBe('cmd [options]');
    expect(preview('cmd').content).toContain('Runs the command.');
  });

  it('describes entries documented together by the definition they share, undocumented ones by what introduces them', () => {
    expect(preview('opt-x').content).toContain('Both options turn tracing on.');
    expect(preview('role-b').content).toContain('These roles refer to objects:');
  });

  it('previews the row of a one-word target, and where a table of contents entry leads', () => {
    expect(preview('speed').content).toContain('velocity');
    // An error's code, one name however many parts (fastify's errors).
    expect(preview('fst_err_body_too_large').content).toContain('The body is too large.');
    expect(preview('toc-next').title).toBe('Next');
  });

  it("previews a module's section wherever its target stands in it; in a section of several modules, the module's part", () => {
    const modules = parseHtml(`<html><body><div role="main"><section id="plot-style-files"><h1>Plot Style Files</h1>
      <div class="versionadded"><p>New in version 0.16.</p></div><p>CTB files store plot styles.</p>
      <nav class="contents"><p>Contents</p><ul><li><a href="#load">load</a></li></ul></nav>
      <span class="target" id="module-kit.ctb"></span><dl class="py function"><dt class="sig sig-object py" id="kit.ctb.load">
      <span class="sig-name descname">load</span>()</dt><dd><p>Loads a file.</p></dd></dl></section>
      <section id="module-kit.simple"><h2>Implementations</h2><dl class="py class"><dt class="sig sig-object py" id="kit.simple.Client">
      <span class="sig-name descname">Client</span>()</dt><dd><p>A simple client.</p></dd></dl>
      <span class="target" id="module-kit.curl"></span><dl class="py class"><dt class="sig sig-object py" id="kit.curl.Client">
      <span class="sig-name descname">Client</span>()</dt><dd><p>A libcurl client.</p></dd></dl></section></div></body></html>`);
    const target = (fragment: string) => previewOfTarget(modules, fragment, 'https://docs.example.org/ctb.html')!;
    expect(target('module-kit.ctb').title).toBe('Plot Style Files');
    expect(target('module-kit.ctb').content).toContain('CTB files store plot styles.');
    expect(target('module-kit.ctb').content).not.toContain('href="#load"');
    expect(target('module-kit.curl').content).toContain('A libcurl client.');
    expect(target('module-kit.curl').content).not.toContain('A simple client.');
  });

  it('titles by a paragraph that reads as a title (a rubric) the blocks it heads, up to the next of its kind', () => {
    const rubrics = parseHtml(`<html><body><div role="main"><section id="lw"><h1>LWPolyline</h1><p>A polyline.</p>
      <p class="rubric" id="bulge-value">Bulge value</p><p>The bulge value is used to create arc shaped segments.</p>
      <ul><li><p>0 = no bulge</p></li></ul><p class="rubric" id="vertices">Vertices</p><p>The points of the line.</p>
      <p id="short">Returns None</p></section></div></body></html>`);
    const target = (fragment: string) => previewOfTarget(rubrics, fragment, 'https://docs.example.org/lwpolyline.html')!;
    expect(target('bulge-value').title).toBe('Bulge value');
    expect(target('bulge-value').content).toContain('The bulge value is used to create arc shaped segments.');
    expect(target('bulge-value').content).toContain('0 = no bulge');
    expect(target('bulge-value').content).not.toContain('The points of the line.');
    // Nothing after it to head: the paragraph itself.
    expect(target('short')).toMatchObject({ title: '', content: expect.stringContaining('Returns None') });
  });
});

describe('previewOf cuts', () => {
  it('never ends on a lead-in: the block it announces comes along, or the lead-in goes', () => {
    const section = '<section><h2>Use</h2><p>One.</p><p>Two.</p><p>For example:</p><pre>run()</pre><p>Three.</p></section>';
    const withExample = previewOf(section, { limits: { maxBlocks: 3, maxChars: 4000 } });
    expect(withExample.content).toMatch(/For example:<\/p>\n<pre>run\(\)<\/pre>$/);
    const noRoom = previewOf(section, { limits: { maxBlocks: 3, maxChars: 50 } });
    expect(noRoom.content).not.toContain('For example:');
    expect(noRoom.truncated).toBe(true);
  });

  it('tells a lead-in by the end of its shown text: a colon in its last element, before spaces and a permalink, not one within', () => {
    const page = (third: string) =>
      parseFragment(`<section><h2>Use</h2><p>One.</p><p>Two.</p>${third}<pre>run()</pre><p>Three.</p></section>`)[0] as Element;
    const leadIn = previewOfElement(page('<p>For <em>example:</em> \n<a href="#use">¶</a></p>'), base);
    expect(leadIn.content).toMatch(/<em>example:<\/em>\s*<\/p>\n<pre>run\(\)<\/pre>$/);
    const noRoom = previewOfElement(page('<p>For <em>example:</em> \n<a href="#use">¶</a></p>'), base, { maxBlocks: 3, maxChars: 60 });
    expect(noRoom.content).not.toContain('example');
    expect(noRoom.content).toContain('Two.');
    const within = previewOfElement(page('<p>Note: <em>it</em> runs.</p>'), base);
    expect(within.content).toMatch(/runs\.<\/p>$/);
  });

  it('never ends on a heading: the text under it comes along (a MkDocs page, its headings beside its paragraphs)', () => {
    // npm's `npm diff` page, built by MkDocs with the material theme: an empty "Description" ended its preview.
    const page = `<article><h1>npm-diff</h1>
      <h3 id="synopsis">Synopsis</h3>
      <pre><code class="language-bash">npm diff [...&lt;paths&gt;]\n</code></pre>
      <h3 id="description">Description</h3>
      <p>Similar to its <code>git diff</code> counterpart, this command will print diff patches of files for packages
        published to the npm registry.</p>
      <ul><li><p><code>npm diff --diff=&lt;spec-a&gt; --diff=&lt;spec-b&gt;</code></p></li></ul></article>`;
    const preview = previewOf(page);
    expect(preview.content).toMatch(/<h3 id="description">Description<\/h3>\n<p>Similar to its/);
    expect(preview.truncated).toBe(true);
    const noRoom = previewOf(page, { limits: { maxBlocks: 3, maxChars: 160 } });
    expect(noRoom.content).not.toContain('Description');
  });

  it("reads a section too large as its blocks (fsspec's API reference), and after a date alone, a block's beginning", () => {
    const rows = Array.from({ length: 300 }, (_, index) => `<tr><td><p>fsspec.open_${index}</p></td><td><p>Opens.</p></td></tr>`);
    const api = previewOf(
      `<section id="api-reference"><h1>API Reference</h1><section id="user-functions"><h2>User Functions</h2>` +
        `<table><tbody>${rows.join('')}</tbody></table></section></section>`,
    );
    expect(api.title).toBe('API Reference');
    expect(api.content).toMatch(/^<h2>User Functions<\/h2>\n<table><thead><\/thead><tbody><tr><td><p>fsspec.open_0<\/p><\/td>/);
    const notes = Array.from({ length: 200 }, (_, index) => `<li><p>Fixed bug ${index} in the HTTP client.</p></li>`).join('');
    const changes = 'Templates escape their output.\n'.repeat(400);
    const release = previewOf(`<section id="v2"><h1>What's new in Tornado 2.0</h1><p>Jun 21, 2011</p><pre>${changes}</pre></section>`);
    expect(release.content).toMatch(/^<p>Jun 21, 2011<\/p>\n<pre>Templates escape their output.\nTemplates/);
    expect(release.content.length).toBeLessThanOrEqual(4000);
    expect(previewOf(`<section><h1>v3</h1><p>Jun 21, 2013</p><ul>${notes}</ul></section>`).content).toContain('Fixed bug 0');
  });

  it("leaves out a table of contents where the page says something besides (CherryPy's pages), not where it is all", () => {
    const contents =
      '<div class="contents topic" id="contents"><p class="topic-title">Contents</p><ul>' +
      '<li><a href="#one">The one-minute application</a></li><li><a href="#hosting">Hosting applications</a></li>' +
      '<li><a href="#logging">Logging</a></li></ul></div>';
    const basics = previewOf(
      `<section id="basics"><h1>Basics</h1><p>The following sections will drive you through the basics of a CherryPy ` +
        `application.</p>${contents}<section id="one"><h2>The one-minute application</h2>` +
        '<p>The most basic application you can write involves almost all its core concepts.</p></section></section>',
    );
    expect(basics.content).not.toContain('Contents');
    expect(basics.content).toContain('The most basic application you can write');
    // A page that is its table of contents (a guide's start page) shows it.
    expect(previewOf(`<section id="guide"><h1>Guide</h1>${contents}</section>`).content).toContain('Hosting applications');
    // A signature linking its types (Python's C API) is no table of contents.
    const type = '<a href="structures.html#c.PyObject">PyObject</a>';
    const signature = previewOf(
      `<dl class="c function"><dt class="sig sig-object c" id="c.PyObject_Str">${type} *<span class="sig-name">PyObject_Str</span>` +
        `(${type} *o, ${type} *p)</dt><dd><p>Compute a string representation of object o, as str(o) does.</p></dd></dl>`,
    );
    expect(signature.content).toContain('PyObject_Str');
  });

  it('reads a wrapper too large as its blocks, and shows a table too large by its head and first rows (lmfit)', () => {
    const rows = Array.from({ length: 200 }, (_, index) => `<tr><td><p>Method ${index}</p></td><td><p>method${index}</p></td></tr>`);
    rows[0] = '<tr><td><p>Method 0</p></td><td><table><tr><td>nested</td></tr></table></td></tr>';
    const preview = previewOf(
      `<blockquote id="fit-methods"><div><p>Table of Supported Fitting Methods:</p><table><thead><tr><th>Fitting Method</th>` +
        `<th>method arg</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></blockquote>`,
    );
    expect(preview.content).toMatch(/^<p>Table of Supported Fitting Methods:<\/p>\n<table><thead><tr><th>Fitting Method<\/th>/);
    expect(preview.content).toContain('<td><p>Method 0</p></td>');
    expect(preview.content).not.toContain('Method 199');
    // A nested table's row, once: inside its own.
    expect(preview.content.match(/nested/g)).toHaveLength(1);
    expect(preview.content.length).toBeLessThanOrEqual(4000);
    expect(preview.truncated).toBe(true);
  });

  it('counts blocks by their text: rules and images do not use up the count', () => {
    const preview = previewOf('<section><h2>Module</h2><hr><p><img src="a.png"></p><p>Text.</p></section>', {
      limits: { maxBlocks: 1, maxChars: 4000 },
    });
    expect(preview.content).toContain('Text.');
  });
});

describe('previews of API entries whose descriptions link elsewhere', () => {
  it("keep the description of Werkzeug's NotFound, whose parameters' types link to docs.python.org", () => {
    const html = readFileSync(new URL('./structure/fixtures/pallets-exception.html', import.meta.url), 'utf8');
    const url = 'https://docs.example.org/en/latest/exceptions.html';
    const block = extractSection(parseHtml(html), url, { fragment: 'werkzeug.exceptions.NotFound', doctool: 'sphinx' })!;
    for (const preview of [previewOf(block), previewOfTarget(parseHtml(html), 'werkzeug.exceptions.NotFound', url)!]) {
      expect(preview.title).toBe('werkzeug.exceptions.NotFound');
      expect(preview.content).toContain('Raise if a resource does not exist and never existed.');
    }
  });
});

describe('citations', () => {
  const page = parseHtml(`<html><body><div role="main"><section id="compression"><h2>Compression</h2>
    <p>Zlib (see <a class="reference internal" href="bibliography.html#zlib"><span class="std std-ref">[ZLIB]</span></a>).</p>
    </section><section id="bibliography"><h2>Bibliography</h2><dl class="simple" id="zlib"><dt>
    <a class="reference internal" href="#zlib"><span class="std std-ref">[ZLIB]</span></a></dt><dd><p>Gailly and Adler. zlib.</p></dd></dl>
    </section></div></body></html>`);
  const preview = (fragment: string) => previewOfTarget(page, fragment, 'https://docs.example.org/guide.html')!;

  it("keep a bracketed citation in running text, and a bibliography's label as its entry's title (PyTables)", () => {
    expect(preview('compression').content).toMatch(/\(see <a [^>]*><span[^>]*>\[ZLIB\]<\/span><\/a>\)/);
    const sections = splitSections(toHtml(page.document), 'guide.html').sections;
    expect(sections.find((section) => section.id === 'compression')!.text).toContain('(see [ZLIB])');
    expect(preview('zlib')).toMatchObject({ title: '[ZLIB]', content: expect.stringContaining('Gailly and Adler') });
  });
});

describe('previews of source code and their annotation links', () => {
  const viewcode = readFileSync(new URL('./structure/fixtures/viewcode.html', import.meta.url), 'utf8');
  const sourceUrl = 'https://docs.example.org/en/latest/_modules/tornado/concurrent.html';

  it('previews a definition on a viewcode page as its code, from its line to its end, without the [docs] link', () => {
    const preview = previewOfTarget(parseHtml(viewcode), 'chain_future', sourceUrl)!;
    expect(preview.title).toBe('chain_future');
    expect(preview.content).toMatch(
      /^<pre><code>def chain_future\(a: &quot;Future\[_T\]&quot;|^<pre><code>def chain_future\(a: "Future\[_T\]"/,
    );
    expect(preview.content).toContain('IOLoop.current().add_future(a, copy)');
    expect(preview.content).not.toContain('[docs]');
    expect(preview.content).not.toContain('future_set_result_unless_cancelled');
  });

  it('tells a definition cut out of its listing (an Embed API answer) from a section', () => {
    const block = extractSection(parseHtml(viewcode), sourceUrl, { fragment: 'chain_future' })!;
    expect(cutFromListing(block)).toBe(true);
    // A class's block holds its methods' blocks (Django's viewcode pages).
    expect(cutFromListing(`<div id="A">class A:\n    <div id="A.f">def f(self):\n        pass</div>\n</div>`)).toBe(true);
    expect(cutFromListing(section('glossary.html', 'term-lease'))).toBe(false);
    expect(cutFromListing(section('api/scheduler.html', 'aurora.Scheduler.add_job'))).toBe(false);
  });

  it("tells a two-line definition cut out of its listing (Kombu's MaybeChannelBound.when_bound: a signature, a docstring)", () => {
    const kombu = readFileSync(new URL('./structure/fixtures/viewcode-kombu.html', import.meta.url), 'utf8');
    const url = 'https://docs.example.org/en/latest/_modules/kombu/abstract.html';
    const block = extractSection(parseHtml(kombu), url, { fragment: 'MaybeChannelBound.when_bound' })!;
    expect(cutFromListing(block)).toBe(true);
    expect(cutFromListing('<div id="a">One line of text, no listing.</div>')).toBe(false);
    // Read again in its page, as the proxy then does: code.
    expect(previewOfTarget(parseHtml(kombu), 'MaybeChannelBound.when_bound', url)!.content).toBe(
      '<pre><code>def when_bound(self):\n    """Callback called when the class is bound."""</code></pre>',
    );
  });

  it('previews a numbered line of a listing as the definition that starts there', () => {
    const page = parseHtml(
      '<main><h1>app.py</h1><pre><span id="L1">import os</span>\n\n<span id="L3">@route("/")</span>\n' +
        '<span id="L4">def index(request):</span>\n<span id="L5">    """The start page."""</span>\n' +
        '<span id="L6">    return render(request)</span>\n\n<span id="L8">def other():</span>\n<span id="L9">    pass</span></pre></main>',
    );
    const preview = previewOfTarget(page, 'L3', 'https://docs.example.org/app.html')!;
    expect(preview.content).toBe(
      '<pre><code>@route("/")\ndef index(request):\n    """The start page."""\n    return render(request)</code></pre>',
    );
    expect(preview.title).toBe('def index(request):');
  });

  it('leaves [source] links (Sphinx viewcode, cut from the Tornado docs) out of an API entry', () => {
    const entry =
      '<dl class="py method"><dt class="sig sig-object py" id="tornado.web.RequestHandler.prepare">' +
      '<span class="sig-prename descclassname"><span class="pre">RequestHandler.</span></span>' +
      '<span class="sig-name descname"><span class="pre">prepare</span></span>' +
      '<span class="sig-paren">(</span><span class="sig-paren">)</span>' +
      '<a class="reference internal" href="_modules/tornado/web.html#RequestHandler.prepare">' +
      '<span class="viewcode-link"><span class="pre">[source]</span></span></a>' +
      '<a class="headerlink" href="#tornado.web.RequestHandler.prepare" title="Permalink to this definition">¶</a></dt>' +
      '<dd><p>Called at the beginning of a request before get/post/etc.</p></dd></dl>';
    const preview = previewOf(entry);
    expect(preview.title).toBe('RequestHandler.prepare');
    expect(preview.content).not.toContain('[source]');
    expect(preview.content).not.toContain('¶');
    expect(preview.content).toContain('Called at the beginning of a request');
  });
});

describe('previews of members of a class and of a module target after its page title', () => {
  const kombu = readFileSync(new URL('./structure/fixtures/sphinx-celery-module.html', import.meta.url), 'utf8');
  const url = 'https://docs.example.org/en/latest/reference/kombu.mixins.html';

  it('name the class a member belongs to where its signature does not (Werkzeug\'s Request.args read "args")', () => {
    const werkzeug = readFileSync(new URL('./structure/fixtures/pallets-members.html', import.meta.url), 'utf8');
    const preview = previewOfTarget(parseHtml(werkzeug), 'werkzeug.wrappers.Request.args', 'https://docs.example.org/wrappers.html')!;
    expect(preview.title).toBe('Request.args');
    expect(preview.content).toContain('The parsed URL parameters');
    // A signature that names its class already keeps its own name.
    expect(previewOfTarget(parseHtml(werkzeug), 'werkzeug.wrappers.Request', 'https://docs.example.org/wrappers.html')!.title).toBe(
      'werkzeug.wrappers.Request',
    );
  });

  it('show an undocumented member with its class, each signature in a list of its own (no <dt> inside a <dd>)', () => {
    const preview = previewOfTarget(parseHtml(kombu), 'kombu.mixins.ConsumerMixin.connection_errors', url)!;
    expect(preview.title).toBe('ConsumerMixin.connection_errors');
    const member = /^<dl><dt [^>]*id="kombu.mixins.ConsumerMixin.connection_errors"[\s\S]*<\/dt><dd>/;
    const owner = /<dd><dl><dt [^>]*id="kombu.mixins.ConsumerMixin"[\s\S]*<\/dt><dd><p>Convenience mixin/;
    expect(preview.content).toMatch(member);
    expect(preview.content).toMatch(owner);
    const terms = parseHtml(`<html><body>${preview.content}</body></html>`).$('dt');
    expect(terms.length).toBe(2);
    terms.each((_, term) => void expect(term.parent && 'name' in term.parent && term.parent.name).toBe('dl'));
  });

  it('show the section the title opens, and the beginning of a class too large to show whole ("Mixins." alone before)', () => {
    const preview = previewOfTarget(parseHtml(kombu), 'module-kombu.mixins', url)!;
    expect(preview.title).toBe('Mixin Classes - kombu.mixins');
    expect(preview.content).toContain('<p>Mixins.</p>');
    // The list's kind stays: the widget styles an API entry and a field list by it.
    const owner = /<dl class="py class"><dt [^>]*id="kombu.mixins.ConsumerMixin"[\s\S]*<\/dt><dd><p>Convenience mixin for implementing/;
    expect(preview.content).toMatch(owner);
    expect(preview.content).not.toContain('Optional extra context manager');
    expect(preview.truncated).toBe(true);
  });
});

describe("a page's opening, read where it is", () => {
  const pageUrl = 'https://docs.example.org/en/stable/index.html';
  const prose = 'Words a reader reads about the topic of this page, long enough to count as prose. '.repeat(4);
  const previews = (html: string) => {
    const page = parseHtml(html);
    const main = page.$('[role=main]').get(0)!;
    return { page: previewOfElement(main, pageUrl), copy: previewOf(extractSection(page, pageUrl, {})!) };
  };

  it('drops a banner whose relative link a copy makes absolute, as a preview of the copy does', () => {
    const { page, copy } = previews(
      `<body><nav><a href="a.html">A</a></nav><div role="main">
        <div class="note">Read <a href="../dev/index.html">the development version</a>.</div>
        <div><h1>Topic<a class="headerlink" href="#topic">¶</a></h1><p>Opening words of the page.</p></div>
        <section><h2>More</h2><p>${prose}</p></section></div></body>`,
    );
    expect(page).toEqual(copy);
    expect(page.content).not.toContain('development version');
    expect(page.content).toContain('Opening words');
  });

  it('writes a block without the furniture inside it and its permalinks', () => {
    const { page, copy } = previews(
      `<body><div role="main"><div class="outer">
        <div class="part"><h1>Topic<a class="headerlink" href="#topic">¶</a></h1><p>Opening <a href="b.html">words</a>.</p></div>
        <div class="links"><a href="prev.html">Previous</a> <a href="next.html">Next</a></div></div>
        <p>${prose}</p></div></body>`,
    );
    expect(page).toEqual(copy);
    expect(page.content).not.toContain('Previous');
    expect(page.content).not.toContain('¶');
    expect(page.content).toContain('href="https://docs.example.org/en/stable/b.html"');
  });
});
