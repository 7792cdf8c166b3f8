import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toHtml, withAbsoluteReferences } from './find-section.ts';
import { parseHtml, textOf } from './html/parse.ts';
import { findMainContent, structureOf } from './html/structure.ts';
import { hasTextBeyondTitle, previewOf, previewOfTarget } from './preview.ts';
import { normalizeSpace, splitSections } from './sections.ts';

/** Real pages of each theme, trimmed to their structure (see the comment atop each fixture). */
const fixture = (theme: string) => readFileSync(new URL(`./structure/fixtures/${theme}.html`, import.meta.url), 'utf8');
const pageUrl = 'https://docs.example.org/en/latest/guide/page.html';
const plainText = (html: string) => normalizeSpace(html.replace(/<[^>]*>/g, ' '));

interface ThemeCase {
  theme: string;
  /** The id of the main content's element, or its tag when it has none. */
  main: string;
  title: string;
  /** Ids that sections link to, in the order the index lists them. */
  sections: string[];
  /** A fragment, the title its preview shows and words of its text. */
  preview: [fragment: string, title: string, text: string];
  /** Words of the whole page's preview. */
  page: string;
}

const THEMES: ThemeCase[] = [
  {
    // No role=main, no <main>: the site's name in an <h1> of the page header, sections as div.section
    // whose linked id is on an empty <span> before the heading, commands as <dt> with an empty <dd>.
    theme: 'django',
    main: 's-django-admin-and-manage-py',
    title: 'django-admin and manage.py',
    sections: ['django-admin-and-manage-py', 'usage', 'available-commands', 'getting-runtime-help'],
    preview: ['django-admin-startproject', 'django-admin startproject name [directory]', 'Creates a Django project directory structure'],
    page: 'django-admin is Django’s command-line utility',
  },
  {
    theme: 'pallets',
    main: 'templates',
    title: 'Templates',
    sections: ['templates', 'jinja-setup', 'standard-context'],
    preview: ['standard-context', 'Standard Context', 'The following global variables are available'],
    page: 'Flask leverages Jinja2 as its template engine.',
  },
  {
    // An empty label (`<span id="id1">`) before the page's first paragraph.
    theme: 'alabaster',
    main: 'quickstart',
    title: 'Quickstart',
    sections: ['quickstart', 'make-a-request'],
    preview: ['make-a-request', 'Make a Request', 'Making a request with Requests is very simple.'],
    page: 'Eager to get started?',
  },
  {
    // The site's name in an <h1> of the header; a label before a subsection.
    theme: 'sqlalchemy',
    main: 'session-basics',
    title: 'Session Basics',
    sections: ['session-basics', 'what-does-the-session-do', 'basics-of-using-a-session', 'opening-and-closing-a-session'],
    preview: ['session-getting', 'Opening and Closing a Session', 'The Session may be constructed on its own'],
    page: 'What does the Session do',
  },
  {
    // Configuration values documented together (empty definitions, then the one they share).
    theme: 'sphinx13',
    main: 'module-sphinx.ext.coverage',
    title: 'sphinx.ext.coverage – Collect doc coverage stats',
    sections: ['sphinx.ext.coverage.CoverageBuilder', 'confval-coverage_ignore_modules', 'confval-coverage_ignore_functions'],
    preview: ['confval-coverage_ignore_functions', 'coverage_ignore_functions', 'List of Python regular expressions'],
    page: 'This extension features one additional builder',
  },
  {
    // An undocumented attribute: the class it belongs to describes it. The page, headed by the class's
    // short name, is titled by its full name (the site has other pages headed the same).
    theme: 'astropy',
    main: 'columngroups',
    title: 'astropy.table.ColumnGroups',
    sections: ['astropy.table.ColumnGroups', 'astropy.table.ColumnGroups.indices', 'columngroups'],
    preview: ['astropy.table.ColumnGroups.indices', 'ColumnGroups.indices', 'Bases: BaseGroups'],
    page: 'Bases: BaseGroups',
  },
  {
    theme: 'rtd',
    main: 'tornado-web-requesthandler-and-application-classes',
    title: 'tornado.web — RequestHandler and Application classes',
    sections: ['tornado.web.RequestHandler', 'tornado.web.RequestHandler.initialize', 'tornado.web.RequestHandler.prepare'],
    preview: ['tornado.web.RequestHandler.prepare', 'RequestHandler.prepare', 'Called at the beginning of a request'],
    page: 'provides a simple web framework with asynchronous features',
  },
  {
    // Headings not wrapped in sections: a heading's section is the blocks up to the next one of its rank.
    theme: 'mkdocs',
    main: 'div',
    title: 'Writing your docs',
    sections: ['writing-your-docs', 'file-layout', 'index-pages'],
    preview: ['index-pages', 'Index pages', 'When a directory is requested'],
    page: 'How to layout and write your Markdown source files.',
  },
  {
    // <main> holds the navigation sidebars too: the content is the article beside them.
    theme: 'mkdocs-material',
    main: 'article',
    title: 'Class: RetryAgent',
    sections: ['class-retryagent', 'new-retryagentdispatcher-options', 'parameter-retryhandleroptions'],
    preview: ['parameter-retryhandleroptions', 'Parameter: RetryHandlerOptions', 'throwOnError'],
    page: 'A undici.Dispatcher that allows to automatically retry a request.',
  },
];

describe.each(THEMES)('structure of a $theme page', ({ theme, main, title, sections, preview, page }) => {
  const html = fixture(theme);
  const parsed = parseHtml(html);

  it('finds the main content: the region of the page heading and its prose, without navigation', () => {
    const region = structureOf(parsed, 'guide/page.html')!.mainContent();
    expect(region.attribs.id ?? region.name).toBe(main);
    expect(region.attribs.role ?? '').not.toBe('navigation');
  });

  it('titles the page by its content heading and lists its sections by the ids links use', () => {
    const split = splitSections(html, 'guide/page.html');
    expect(split.kind).toBe('content');
    expect(split.title).toBe(title);
    const ids = split.sections.map((section) => section.id);
    expect(ids.filter((id) => sections.includes(id))).toEqual(sections);
  });

  it('previews a link target with the text it points to', () => {
    const [fragment, previewTitle, text] = preview;
    const result = previewOfTarget(parsed, fragment, pageUrl)!;
    expect(result.title).toBe(previewTitle);
    expect(plainText(result.content)).toContain(text);
  });

  it('previews the whole page with its prose, not its navigation', () => {
    const result = previewOf(toHtml(findMainContent(parsed)!));
    expect(plainText(result.content)).toContain(page);
    expect(result.content).not.toMatch(/<nav\b|role="navigation"/);
  });
});

describe('generated pages', () => {
  it('tells an index (links in lists, little prose) from content', () => {
    expect(splitSections(fixture('genindex'), 'genindex.html').kind).toBe('index');
  });

  it('tells a search page (a search box and hardly any text)', () => {
    const search = `<html><head><title>Search — Site</title></head><body><div role="main"><h1>Search</h1>
      <p>Searching for multiple words only shows matches that contain all words.</p>
      <form action="" method="get"><input type="text" name="q"><input type="submit" value="search"></form></div></body></html>`;
    expect(splitSections(search, 'search.html').kind).toBe('search');
  });

  const sidebar = '<div role="navigation"><h3>Quick search</h3><form><input type="text" name="q"></form></div>';

  it('tells a search page whose content is empty but for the results a script fills in, the search box beside it (Furo)', () => {
    const search = `<html><head><title>Search — Site</title></head><body>${sidebar}
      <article role="main"><noscript><p>Please activate JavaScript.</p></noscript><div id="search-results"></div></article></body></html>`;
    expect(splitSections(search, 'search.html').kind).toBe('search');
  });

  it('does not take a short page for a search page because of the search box in its sidebar', () => {
    const moved = `<html><body>${sidebar}<div role="main"><h1>Moved</h1>
      <p>See <a href="new.html">the new page</a> for what this page said.</p></div></body></html>`;
    expect(splitSections(moved, 'old.html').kind).not.toBe('search');
    const link = `<html><body>${sidebar}<div role="main">
      <p><a href="https://example.org/4.0.html">What’s new in 4.0?</a></p></div></body></html>`;
    expect(splitSections(link, 'whatsnew/4.0.html').kind).toBe('index');
  });
});

describe('page title', () => {
  it('is not a heading that only links to another page (the site name in a header), but the <title>', () => {
    const html = `<html><head><title>Install — Tool 2 docs</title></head><body>
      <div><h1><a href="../index.html">Tool 2 docs</a></h1><a href="../a.html">A</a></div>
      <div><p>No heading of its own, but ${'prose '.repeat(80)}</p></div></body></html>`;
    const split = splitSections(html, 'guide/install.html');
    expect(split.title).toBe('Install — Tool 2 docs');
    expect(textOf(structureOf(parseHtml(html), 'guide/install.html')!.mainContent())).toContain('No heading of its own');
  });
});

describe('a page of links under its title (a toctree)', () => {
  it("is its title and links, not the sidebar's last-update line beside them (Django's FAQ index, no main marked)", () => {
    const parsed = parseHtml(fixture('django-toctree'));
    expect(findMainContent(parsed)!.attribs.id).toBe('s-django-faq');
    const page = previewOf(toHtml(findMainContent(parsed)!));
    expect(plainText(page.content)).toContain('FAQ: General');
    expect(plainText(page.content)).not.toMatch(/Last update|Nov 11, 2026|Quick search/);
  });

  it('is not widened to the previous and next links and the copyright after it, more prose than its own (Furo: SymPy)', () => {
    const entries = ['Ntheory Class Reference', 'Ntheory Functions Reference', 'ECM function', 'Examples', 'QS function'];
    const html =
      '<body><div class="page"><div class="article-container"><article><section id="number-theory"><h1>Number Theory</h1>' +
      `<p><strong>Contents</strong></p><ul>${entries.map((entry) => `<li><a href="ntheory.html">${entry}</a></li>`).join('')}</ul>` +
      '</section></article><div class="related-pages"><a href="ntheory.html"><span>Next</span> Ntheory Class Reference</a>' +
      '<a href="vector.html"><span>Previous</span> Vector</a></div><div class="bottom-of-page">Copyright © 2022 SymPy Development' +
      " Team. Made with Sphinx and @pradyunsg's Furo. Last updated on Nov 02, 2022</div></div></div></body>";
    expect(structureOf(parseHtml(html))!.mainContent().attribs.id).toBe('number-theory');
  });
});

describe('theme furniture inside the marked main content', () => {
  const FURNITURE = /\.rst|\.pdf|Contents|previous|next|©|Copyright|development version/;

  it('is no section and no part of the whole-page preview on an API page of sphinx-book-theme (Dask)', () => {
    // The topbar's ".rst .pdf" buttons and "Contents" label before the <h1>; previous/next and © after the text.
    const html = fixture('sphinx-book');
    const split = splitSections(html, 'generated/dask.dataframe.read_csv.html');
    expect(split.sections.map((section) => section.id)).not.toContain('');
    for (const section of split.sections) expect(`${section.title} ${section.content}`).not.toMatch(FURNITURE);
    const page = previewOf(toHtml(findMainContent(parseHtml(html))!));
    expect(page.title).toBe('dask.dataframe.read_csv');
    expect(plainText(page.content)).toContain('Read CSV files into a Dask.DataFrame');
    expect(plainText(page.content)).not.toMatch(FURNITURE);
  });

  it("is not the page's opening on a sphinx_celery page (Kombu): its version banner before the <h1>", () => {
    const html = fixture('sphinx-celery');
    const split = splitSections(html, 'introduction.html');
    for (const section of split.sections) expect(section.content).not.toMatch(FURNITURE);
    const page = previewOf(toHtml(findMainContent(parseHtml(html))!));
    expect(page.title).toBe('Getting Started');
    expect(plainText(page.content)).not.toMatch(FURNITURE);
    // The page's own text, after its fields ("Version: 5.2.4", "Web", "Download": see preview.ts' `isFrontMatter`).
    expect(plainText(page.content)).toMatch(/^About Kombu is a messaging library/);
  });

  it("is not the opening of a sphinx_celery page of several top-level sections (Kombu's index): its version banner", () => {
    const html = fixture('sphinx-celery-index');
    const split = splitSections(html, 'index.html');
    expect(split.sections.map((section) => section.id)).toEqual(['kombu-documentation', 'indices-and-tables']);
    // "Contents:" is the page's own line there.
    const banner = /development version|stable docs/;
    for (const section of split.sections) expect(section.content).not.toMatch(banner);
    const page = previewOf(toHtml(findMainContent(parseHtml(html))!));
    // Two top-level sections: the preview is titled by the first and opens with its text.
    expect(page.title).toBe('Kombu Documentation');
    expect(plainText(page.content)).toMatch(/^Contents:/);
    expect(plainText(page.content)).not.toMatch(banner);
  });

  it('is not the opening of a sphinx-book-theme page of several top-level sections (Dask): its buttons and "Contents"', () => {
    const html = fixture('sphinx-book-sections');
    const split = splitSections(html, 'dataframe-groupby.html');
    expect(split.sections.map((section) => section.id)).toContain('aggregate');
    for (const section of split.sections) expect(`${section.title} ${section.content}`).not.toMatch(FURNITURE);
    const page = previewOf(toHtml(findMainContent(parseHtml(html))!));
    expect(page.title).toBe('Shuffling for GroupBy and Join');
    expect(plainText(page.content)).toMatch(/^Operations like groupby/);
  });

  it("is not the opening of a page that marks nothing, before its <h1>: the site's menu of links (lxml's docutils pages)", () => {
    const html = fixture('docutils-lxml');
    const menu = /donation|Menu|Why lxml|Mailing list/;
    const split = splitSections(html, 'parsing.html');
    expect(split.title).toBe('Parsing XML and HTML with lxml');
    expect(split.sections.map((section) => section.id)).toEqual(['parsing-xml-and-html-with-lxml', 'parsers', 'parser-options']);
    for (const section of split.sections) expect(`${section.title} ${section.content}`).not.toMatch(menu);
    const page = previewOf(toHtml(findMainContent(parseHtml(html))!));
    expect(page.title).toBe('Parsing XML and HTML with lxml');
    expect(plainText(page.content)).toMatch(/^lxml provides a very simple and powerful API/);
    expect(plainText(page.content)).not.toMatch(menu);
  });

  it('opens with its title, not the link to its source before it, where headings link to themselves (MkDocs anchorlink)', () => {
    const html = fixture('mkdocs-drf');
    const split = splitSections(html, 'api-guide/authentication/index.html');
    expect(split.title).toBe('Authentication');
    expect(split.sections.map((section) => section.id)).toEqual(['authentication', 'how-authentication-is-determined']);
    for (const section of split.sections) expect(section.content).not.toMatch(/authentication\.py/);
    const main = findMainContent(parseHtml(html))!;
    // As the page is, and as an embed answer sends it, its links absolute.
    for (const page of [previewOf(toHtml(main)), previewOf(toHtml(withAbsoluteReferences(main, pageUrl)), { pageUrl })]) {
      expect(page.title).toBe('Authentication');
      expect(plainText(page.content)).toMatch(/^Auth needs to be pluggable/);
    }
  });

  it('indexes and previews no stylesheet in the content (Django REST framework release notes)', () => {
    const html = fixture('mkdocs-drf-announcement');
    const split = splitSections(html, 'community/3.10-announcement/index.html');
    expect(split.sections[0]!.content).toMatch(/^The 3\.10 release drops support for Python 2/);
    for (const section of split.sections) expect(section.content).not.toMatch(/promo|float/);
    const page = previewOf(toHtml(findMainContent(parseHtml(html))!));
    expect(page.title).toBe('Django REST framework 3.10');
    expect(page.content).not.toMatch(/<style|promo/);
  });

  it('is titled by the object a page with no heading documents, without the link after its text (pygame)', () => {
    const html = fixture('pygame-module');
    const split = splitSections(html, 'ref/camera.html');
    expect(split.sections.map((section) => section.title)).toContain('pygame.camera.init()');
    for (const section of split.sections) expect(section.content).not.toMatch(/Edit on GitHub/);
    const main = findMainContent(parseHtml(html))!;
    const pageUrl = 'https://docs.example.org/en/latest/ref/camera.html';
    for (const page of [previewOf(toHtml(main)), previewOf(toHtml(withAbsoluteReferences(main, pageUrl)), { pageUrl })]) {
      expect(page.title).toBe('pygame.camera');
      expect(plainText(page.content)).toMatch(/^pygame\.camera pygame module for camera use/);
      expect(page.content).not.toMatch(/Edit on GitHub/);
    }
  });

  it("is no section and no preview of a sphinx_celery page with no heading and no text of its own (Kombu's changelog)", () => {
    const html = fixture('sphinx-celery-changelog');
    const banner = /development version|stable docs/;
    const split = splitSections(html, 'changelog.html');
    for (const section of split.sections) expect(section.content).not.toMatch(banner);
    const page = previewOf(toHtml(findMainContent(parseHtml(html))!));
    expect(plainText(page.content)).not.toMatch(banner);
    expect(hasTextBeyondTitle(page)).toBe(false);
  });
});
