import { describe, expect, it } from 'vitest';
import { demoPage } from '../../test/fixtures/demo.ts';
import { findSection, toHtml } from '../embed.ts';
import { parseHtml } from './parse.ts';

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
