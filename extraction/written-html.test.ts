import { readdirSync, readFileSync } from 'node:fs';
import type { Element } from 'domhandler';
import { removeElement } from 'domutils';
import { describe, expect, it } from 'vitest';
import { demoPage } from '../test/fixtures/demo.ts';
import { withAbsoluteReferences } from './find-section.ts';
import { descendants, parseHtml, toHtml } from './html/parse.ts';
import { removePermalinks, removeStyles } from './html/structure.ts';
import { writtenHtml } from './written-html.ts';

const pageUrl = 'https://docs.example.org/en/latest/guide/page.html#target';

/** What a preview wrote before `writtenHtml`: a copy, links made absolute, permalinks and styles removed, serialized by dom-serializer. */
function copied(element: Element, leftOut: ReadonlySet<Element> = new Set()): string {
  const copy = withAbsoluteReferences(element, pageUrl);
  const copies = [...descendants(copy)];
  const dropped = [...descendants(element)].flatMap((original, index) => (leftOut.has(original) ? [copies[index]!] : []));
  for (const inner of dropped) removeElement(inner);
  removePermalinks(copy);
  removeStyles(copy);
  return toHtml(copy);
}

const fixtures = new URL('./structure/fixtures/', import.meta.url);

describe('writtenHtml writes what dom-serializer writes of the copy', () => {
  it("for every element of the themes' pages and the demo's", () => {
    const pages = [
      ...readdirSync(fixtures).map((name) => readFileSync(new URL(name, fixtures), 'utf8')),
      demoPage('aurora/en/latest/api/scheduler.html'),
      demoPage('aurora/en/latest/glossary.html'),
    ];
    let elements = 0;
    for (const html of pages) {
      for (const element of descendants(parseHtml(html).document)) {
        expect(writtenHtml(element, pageUrl)).toBe(copied(element));
        elements++;
      }
    }
    expect(elements).toBeGreaterThan(3_000);
  });

  it('for SVG and MathML, entities, raw text, empty and no-break attributes, void elements, comments and odd links', () => {
    const { document } = parseHtml(`<!doctype html><html><body><div id="root">
      <p style="color: red" title="a &quot;b&quot;&nbsp;c" hidden data-x="" style="x">Text &amp; &lt;tags&gt;&nbsp;here<br>
        <img src="i.png" srcset="a.png 1x, b.png 2x"></p>
      <table><colgroup><col style="width: 27%"><col style="width: 73%"></colgroup></table>
      <svg viewBox="0 0 1 1" style="fill: red">
        <clipPath id="c"><path d="M0"/></clipPath><foreignObject><div>in <a href="#x">¶</a></div></foreignObject></svg>
      <math><mi>x</mi></math>
      <script>if (a < b && c) {}</script><style>a > b {}</style><!-- a comment -->
      <a href="# ">·</a><a href=" #y ">·</a><a href="other.html#">[source]</a><a href="">[docs]</a><a href="#">#</a>
      <h2>Title<a class="headerlink" href="#title">¶</a></h2><a href="http://other.example/x"><img src="/abs.png"></a>
      </div></body></html>`);
    const root = [...descendants(document)].find((element) => element.attribs.id === 'root')!;
    expect(writtenHtml(root, pageUrl)).toBe(copied(root));
    expect(writtenHtml(root, pageUrl)).toContain('viewBox');
    expect(writtenHtml(root, pageUrl)).not.toContain('¶');
    expect(writtenHtml(root, pageUrl)).not.toContain('style=');
  });

  it('leaves out the elements it is told to, in SVG too', () => {
    const { document } = parseHtml(`<body><div id="root"><div>Prev <a href="p.html">p</a></div><h1>Page</h1>
      <svg><foreignObject><div id="inner">Next <a href="n.html">n</a></div></foreignObject></svg><p>Text.</p></div></body>`);
    const all = [...descendants(document)];
    const root = all.find((element) => element.attribs.id === 'root')!;
    const banner = all.find((element) => element.name === 'div' && element.parent === root)!;
    const leftOut = new Set([banner, all.find((element) => element.attribs.id === 'inner')!]);
    const html = writtenHtml(root, pageUrl, leftOut);
    expect(html).toBe(copied(root, leftOut));
    expect(html).not.toContain('Prev');
    expect(html).not.toContain('Next');
    expect(html).toContain('<h1>Page</h1>');
  });
});
