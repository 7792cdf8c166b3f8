import { describe, expect, it } from 'vitest';
import { demoPage } from '../../test/fixtures/demo.ts';
import { findSection, toHtml } from '../find-section.ts';
import { type HtmlSource, parseBodyContent, parseContent, parseHtml, textOf, toHtml as serialize } from './parse.ts';

describe('parseHtml', () => {
  it('uses htmlparser2 for the well-formed pages Sphinx and MkDocs write', () => {
    expect(parseHtml(demoPage('aurora/en/latest/api/scheduler.html')).parser).toBe('htmlparser2');
    expect(parseHtml(demoPage('plugins/en/latest/index.html')).parser).toBe('htmlparser2');
    expect(parseHtml(demoPage('skyline/en/latest/getting-started/index.html')).parser).toBe('htmlparser2');
  });

  it('builds what a browser builds from misnested tags', () => {
    const page = parseHtml('<html><body><div id="x"><b>one<p>two</b>three</p></div></body></html>');
    expect(page.parser).toBe('parse5');
    // The adoption agency algorithm splits the <b> around the paragraph.
    expect(toHtml(findSection(page, { fragment: 'x' })!)).toBe('<div id="x"><b>one</b><p><b>two</b>three</p></div>');
  });

  it('builds the <tbody> and <body> a browser infers', () => {
    const table = parseHtml('<html><body><table id="t"><tr><td>1</td></tr></table></body></html>');
    expect(table.parser).toBe('parse5');
    expect(toHtml(findSection(table, { fragment: 't' })!)).toContain('<tbody>');
    const bodyless = parseHtml('<title>x</title><h1 id="a">Hello</h1><p>text</p>');
    expect(bodyless.parser).toBe('parse5');
    expect(findSection(bodyless, {})?.name).toBe('body');
  });

  it('keeps htmlparser2 for optional end tags a browser infers the same way', () => {
    const page = parseHtml('<html><body><ul><li>a<li>b</ul><p>one<p>two<dl><dt>t<dd>d</dl></body></html>');
    expect(page.parser).toBe('htmlparser2');
  });

  it('finds the first element of an id, as a selector does', () => {
    const page = parseHtml('<html><body><p id="a">first</p><p id="a">second</p></body></html>');
    expect(toHtml(page.elementById('a')!)).toBe('<p id="a">first</p>');
  });
});

/** `html` in parts of `size` characters, as a page read in parts comes. */
const inParts = (html: string, size: number) =>
  Array.from({ length: Math.ceil(html.length / size) }, (_, part) => html.slice(part * size, (part + 1) * size));

describe('parseBodyContent', () => {
  // What the Embed API answers for a whole page: its main content, no <body> around it.
  const content = findSection(parseHtml(demoPage('aurora/en/latest/api/scheduler.html')), {})!;

  it('reads what a body holds with htmlparser2, as a browser puts it in a body as it is', () => {
    const parsed = parseBodyContent(toHtml(content));
    expect(parsed.parser).toBe('htmlparser2');
    expect(serialize(parsed.document)).toBe(toHtml(content));
    expect(parseHtml(toHtml(content)).parser, 'a page without a body').toBe('parse5');
  });

  it('still builds what a browser builds from misnested tags', () => {
    const parsed = parseBodyContent('<div id="x"><b>one<p>two</b>three</p></div>');
    expect(parsed.parser).toBe('parse5');
    expect(toHtml(parsed.elementById('x')!)).toBe('<div id="x"><b>one</b><p><b>two</b>three</p></div>');
  });
});

describe('parseHtml of a page in parts', () => {
  it('builds the tree it builds of the whole page, whatever the parts cut (a tag, an entity, a word)', () => {
    const html = demoPage('aurora/en/latest/api/scheduler.html');
    const whole = serialize(parseHtml(html).document);
    for (const size of [7, 100, 4096]) expect(serialize(parseHtml(inParts(html, size)).document), `parts of ${size}`).toBe(whole);
  });

  it('tells the same misnesting, where the end tag that repairs it is cut in two', () => {
    const page = parseHtml(inParts('<html><body><div id="x"><b>one<p>two</b>three</p></div></body></html>', 3));
    expect(page.parser).toBe('parse5');
    expect(toHtml(findSection(page, { fragment: 'x' })!)).toBe('<div id="x"><b>one</b><p><b>two</b>three</p></div>');
  });
});

describe('parseContent', () => {
  const page = `<html><head><title>Guide — Site</title></head><body>
    <nav><a href="other.html">Other</a><a href="#install">Install</a><input type="search" name="q">
    ${'<div><a href="x.html">Sidebar entry</a> with notes</div>'.repeat(3)}</nav>
    <div class="sidebar"><p>Prose around the content</p></div>
    <div role="main"><h1>Guide</h1><section id="install"><h2>Install</h2><p>Run it.</p></section></div>
    <footer>Footer</footer></body></html>`;

  it('keeps the head and the content marked main, and of the rest the links to fragments and form fields', () => {
    const { document } = parseContent(page);
    expect(textOf(document)).not.toContain('Sidebar entry');
    expect(textOf(document)).not.toContain('Prose around');
    expect(textOf(document)).not.toContain('Footer');
    expect(serialize(document)).toContain('<title>Guide — Site</title>');
    expect(serialize(document)).toContain('<div role="main"><h1>Guide</h1>');
    expect(serialize(document)).toContain('<nav><a href="#install"></a><input type="search" name="q"></nav>');
    expect(serialize(document)).not.toContain('other.html');
  });

  it('parses a page that marks no main content whole, and one a browser would build otherwise with parse5', () => {
    const unmarked = '<html><body><div><h1>Guide</h1><p>Text</p></div><div class="sidebar">Around</div></body></html>';
    expect(textOf(parseContent(unmarked).document)).toContain('Around');
    expect(parseContent('<html><body><main><b>one<p>two</b>three</p></main></body></html>').parser).toBe('parse5');
  });

  it('tells what a browser would build otherwise inside the kept content and in the navigation skimmed around it', () => {
    const nav = '<nav><ul><li><a href="a.html">A</a></li></ul></nav>';
    expect(parseContent(`<html><body>${nav}<main><table><tr><td>1</td></tr></table></main></body></html>`).parser).toBe('parse5');
    // An element left open in the navigation is reopened by a browser in what follows, the main content included.
    expect(parseContent(`<html><body><nav><b><div>x</b></div></nav><main><p>y</p></main></body></html>`).parser).toBe('parse5');
    expect(parseContent(`<html><body>${nav}<main><p>y</p></main></body></html>`).parser).toBe('htmlparser2');
  });

  it('reads, outside the kept elements, the attributes of links that may name a fragment, form fields and elements with a role', () => {
    const told: string[] = [];
    parseContent(page, (name, attribs) => told.push(`${name} ${JSON.stringify(attribs)}`));
    // The sidebar's and its link to another page are told by name only.
    expect(told).toContain('div {}');
    expect(told).not.toContain('div {"class":"sidebar"}');
    expect(told).toContain('a {}');
    expect(told).not.toContain('a {"href":"other.html"}');
    expect(told).toContain('a {"href":"#install"}');
    expect(told).toContain('input {"type":"search","name":"q"}');
    expect(told).toContain('div {"role":"main"}');
    expect(told).toContain('section {"id":"install"}');
  });

  /** Markup around the main content that htmlparser2's tokenizer reads in ways a search for `<` does not. */
  const tricky = `<!DOCTYPE html><html><head><title>T &amp; more</title><script>x = '<a href="#head-script">';</script></head><body>
    <!-- <main><a href="#comment"> --><!--><!---> <a href="#after-comments">After</a><? pi ?>
    <nav class="x>y" data-a='<a href="#quoted">'><a href="page.html">Page</a><A HREF="&#35;entity">E</A><a href=o.html#unquoted>U</a>
    <script>document.write('<a href="#script">'); // </scripts> </script ><a href="plain.html" href="#second">P</a>
    <svg><title><a href="#svg-title"></title><path d="M0"/></svg><tmp><a href="#tmp"></xmp><br/ ><img src=x.png alt=">">
    <span role="navigation"><a href="#in-role">R</a></span><input type="search" name="q"><![CDATA[ <a href="#cdata"> ]]>
    < a href="#not-a-tag"> </ div><p>Text &lt;a href="#escaped"&gt;</p></nav >
    <div ROLE="main"><h1>Guide</h1><a href="#kept">K</a><p>One<p>Two</div >
    <footer><a href="index.html#footer">F</a></footer></body></html>`;

  /** The tree `parseContent` builds of `html`, and the fragments of the links it tells `observe`. */
  const contentOf = (html: HtmlSource) => {
    const fragments: string[] = [];
    const parsed = parseContent(html, (name, attribs) => {
      if (name === 'a' && attribs.href?.includes('#')) fragments.push(attribs.href);
    });
    return { parser: parsed.parser, tree: serialize(parsed.document), fragments };
  };

  it('finds the tags outside the kept elements where htmlparser2 finds them, whatever the parts cut', () => {
    const whole = contentOf(tricky);
    expect(whole).toEqual({
      parser: 'htmlparser2',
      tree:
        '<html><head><title>T &amp; more</title><script>x = \'<a href="#head-script">\';</script></head><body>' +
        '<div role="main"><h1>Guide</h1><a href="#kept">K</a><p>One</p><p>Two</p></div><nav><a href="#after-comments"></a>' +
        '<a href="#entity"></a><a href="o.html#unquoted"></a><a href="#in-role"></a><input type="search" name="q">' +
        '<a href="index.html#footer"></a></nav></body></html>',
      fragments: ['#after-comments', '#entity', 'o.html#unquoted', '#in-role', '#kept', 'index.html#footer'],
    });
    for (let size = 1; size < tricky.length; size++) expect(contentOf(inParts(tricky, size)), `parts of ${size}`).toEqual(whole);
  });
});
