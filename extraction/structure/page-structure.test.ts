import { readdirSync } from 'node:fs';
import { isTag, type Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { demoBuild, demoPage } from '../../test/fixtures/demo.ts';
import { descendants, parseHtml, parseFragment } from '../html/parse.ts';
import { domhandlerTree } from '../html/structure.ts';
import { mayHoldFurniture, PageStructure } from './page-structure.ts';

const rootOf = (html: string): Element => parseFragment(html).find(isTag)!;

describe('mayHoldFurniture', () => {
  it('passes over a section of prose, its headings and permalinks, and the top section of a page that opens with its title', () => {
    for (const html of [
      '<section id="s"><h2>Usage<a class="headerlink" href="#s">¶</a></h2><p>Call it <a href="x.html">x</a>.</p></section>',
      '<section id="top"><h1>Aurora</h1><p>A scheduler.</p><section><h2>Usage</h2><p>Call it.</p></section></section>',
    ])
      expect(mayHoldFurniture(domhandlerTree, rootOf(html))).toBe(false);
  });

  it('looks further at a marked main element, a page title, or navigation', () => {
    for (const html of [
      '<main><p>Text</p></main>',
      '<div role="main"><p>Text</p></div>',
      '<div><header><h1>Title</h1></header><p>Text</p></div>',
      '<div><nav>a</nav></div>',
    ])
      expect(mayHoldFurniture(domhandlerTree, rootOf(html))).toBe(true);
  });

  it('never passes over an element of the demo sites in which the structure finds furniture or surroundings', () => {
    const pages = readdirSync(demoBuild, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.html'));
    let measured = 0;
    for (const page of pages) {
      for (const element of descendants(parseHtml(demoPage(page)).document)) {
        if (mayHoldFurniture(domhandlerTree, element)) continue;
        const structure = new PageStructure(domhandlerTree, element);
        expect(structure.furnitureIn(element)).toEqual([]);
        expect(structure.hasSurroundings()).toBe(false);
        measured++;
      }
    }
    expect(measured).toBeGreaterThan(1000);
  });
});

describe('furnitureIn a marked main with no heading', () => {
  const furniture = (html: string) => {
    const main = rootOf(html);
    return new PageStructure(domhandlerTree, main).furnitureIn(main).map((element) => domhandlerTree.attribute(element, 'id'));
  };

  it('is the links with hardly any prose after the text (an "Edit on GitHub" link)', () => {
    const html =
      '<div role="main"><section id="text"><p>The camera module captures images from a webcam, one frame at a time.</p></section>' +
      '<hr><a id="edit" href="https://github.com/x/edit/camera.rst">Edit on GitHub</a></div>';
    expect(furniture(html)).toEqual(['edit']);
  });

  it('is none of a page of nothing but links (a site index)', () => {
    const html =
      '<main><ul id="about"><li><a href="about.html">About these docs</a></li></ul><hr>' +
      '<ul id="modules"><li><a href="fs.html">File system</a></li><li><a href="http.html">HTTP</a></li></ul></main>';
    expect(furniture(html)).toEqual([]);
  });
});
