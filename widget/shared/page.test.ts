import { expect, fixture, html } from '@open-wc/testing';
import '../preview/doclens-preview.ts';
import { highlightSearchedTerms, mainContent } from './page.ts';

describe('highlighting searched terms on the destination page', () => {
  const original = window.location.href;
  afterEach(() => history.replaceState(null, '', original));

  it('marks the words in the main content as text and removes the parameter from the address', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <nav><p>Retry policy in the nav</p></nav>
      <div role="main"><p id="target">A retry policy decides <code>when</code> to retry.</p><script type="text/plain">retry</script></div>
    </div>`);
    history.replaceState(null, '', `${location.pathname}?highlight=retry%20%3Cimg%20src%3Dx%3E#target`);
    const marked = highlightSearchedTerms(container);
    expect(marked).to.equal(2);
    expect([...container.querySelectorAll('mark.doclens-highlight')].map((mark) => mark.textContent)).to.deep.equal(['retry', 'retry']);
    expect(container.querySelector('nav mark')).to.equal(null);
    expect(container.querySelector('img')).to.equal(null);
    expect(location.search).to.equal('');
    expect(location.hash).to.equal('#target');
  });

  it("leaves the site's name unmarked beside words that tell, and marks it where it is all the reader searched", async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <main><h2 id="thread-safety">Is PyMongo thread-safe?</h2><p>PyMongo is thread-safe; PyMongo pools connections.</p></main>
    </div>`);
    const title = document.title;
    document.title = 'Frequently Asked Questions — PyMongo 4.3.3 documentation';
    try {
      history.replaceState(null, '', `${location.pathname}?highlight=${encodeURIComponent('is pymongo thread safe')}#thread-safety`);
      highlightSearchedTerms(container);
      expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).to.deep.equal(['thread', 'safe', 'thread', 'safe']);
      for (const mark of container.querySelectorAll('mark')) mark.replaceWith(mark.textContent!);
      history.replaceState(null, '', `${location.pathname}?highlight=pymongo#thread-safety`);
      expect(highlightSearchedTerms(container)).to.equal(3);
    } finally {
      document.title = title;
    }
  });

  it("marks a version number whole, not its digits apart (a release's section)", async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <main><h2 id="migrating-to-2-0">Migrating to 2.0</h2><p>Version 2.0.1 fixed 2 bugs and 0 regressions; see 12.0.</p></main>
    </div>`);
    history.replaceState(null, '', `${location.pathname}?highlight=${encodeURIComponent('migrating to 2.0')}#migrating-to-2-0`);
    highlightSearchedTerms(container);
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).to.deep.equal(['Migrating', '2.0']);
  });

  it("marks no stop word, and the theme's mark rule does not break code apart", async () => {
    // Cut from Dask's "Create DataFrames" page, with its theme's `mark` rule (pydata-sphinx-theme) and Scrapy's.
    const container = await fixture<HTMLDivElement>(html`<div>
      <style>
        .mark,mark{padding:.2em;background-color:#fcf8e3}
        mark{background:#ff0;color:#000;font-style:italic;font-weight:bold}
      </style>
      <main>
        <p>Read the CSV files with <code>dd.read_csv</code> from the cloud:</p>
        <div class="highlight"><pre><span class="gp">&gt;&gt;&gt; </span><span class="n">df</span> <span class="o">=</span
        > <span class="n">dd</span><span class="o">.</span><span class="n">read_csv</span><span class="p">(</span
        ><span class="s1">'myfiles.*.csv'</span><span class="p">)</span></pre></div>
      </main>
    </div>`);
    const literal = container.querySelector<HTMLElement>('pre .s1')!;
    const before = literal.getBoundingClientRect().width;
    history.replaceState(null, '', `${location.pathname}?highlight=${encodeURIComponent('how do I read the csv files from the cloud')}`);
    highlightSearchedTerms(container);
    const marks = [...container.querySelectorAll('mark')];
    expect(marks.map((mark) => mark.textContent)).to.deep.equal(['Read', 'CSV', 'files', 'cloud', 'csv']);
    expect(literal.querySelector('mark'), 'a mark in the string literal').to.not.equal(null);
    expect(literal.getBoundingClientRect().width).to.be.closeTo(before, 0.5);
    const style = getComputedStyle(literal.querySelector('mark')!);
    expect([style.paddingLeft, style.fontStyle, style.fontWeight]).to.deep.equal(['0px', 'normal', getComputedStyle(literal).fontWeight]);
  });

  it("marks no word in a formula, left to MathJax or laid out (mpmath's gamma function page)", async () => {
    // Cut from mpmath's gamma function page (Sphinx, sphinx.ext.mathjax), with a formula as MathJax 3 and KaTeX lay them out.
    const container = await fixture<HTMLDivElement>(html`<div role="main">
      <dl>
        <dt id="mpmath.gamma">mpmath.gamma(x, **kwargs)</dt>
        <dd>
          <p>Computes the gamma function, <span class="math notranslate nohighlight">\\(\\Gamma(x)\\)</span>. The gamma function
          is a shifted version of the ordinary factorial, satisfying <span class="math notranslate nohighlight">\\(\\Gamma(n)
          = (n-1)!\\)</span> for integers <span class="math notranslate nohighlight">\\(n &gt; 0\\)</span>.</p>
          <div class="math notranslate nohighlight">\\[\\Gamma(x) = \\int_0^{\\infty} t^{x-1} e^{-t}\\, dt\\]</div>
          <mjx-container><mjx-assistive-mml><math><mi>Gamma</mi></math></mjx-assistive-mml></mjx-container>
          <span class="katex"><span class="katex-html">gamma</span></span>
        </dd>
      </dl>
    </div>`);
    const formulas = [...container.querySelectorAll('.math, mjx-container, .katex')].map((formula) => formula.textContent);
    history.replaceState(null, '', `${location.pathname}?highlight=${encodeURIComponent('gamma function')}`);
    expect(highlightSearchedTerms(container)).to.equal(5);
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).to.deep.equal([
      'gamma',
      'gamma',
      'function',
      'gamma',
      'function',
    ]);
    expect([...container.querySelectorAll('.math, mjx-container, .katex')].map((formula) => formula.textContent)).to.deep.equal(formulas);
    expect(container.querySelector('.math mark, mjx-container mark, .katex mark')).to.equal(null);
  });

  it("shows the first match of a page opened at its top when none is in sight (ipywidgets' embedding page)", async () => {
    const scrolledTo = async (highlight: string) => {
      window.scrollTo(0, 0);
      const container = await fixture<HTMLDivElement>(html`<div>
        <main><h1>Embedding Jupyter Widgets</h1><p style="margin-bottom: 3000px">Widget state.</p>
          <details><summary>More</summary><p>embed_widgets, hidden</p></details>
          <p id="far">Use <code>jupyter_sphinx.embed_widgets</code> in Sphinx.</p></main>
      </div>`);
      history.replaceState(null, '', `${location.pathname}?highlight=${encodeURIComponent(highlight)}`);
      highlightSearchedTerms(container);
      const seen = { far: container.querySelector('#far mark')?.getBoundingClientRect(), scrolled: window.scrollY };
      container.remove();
      return seen;
    };
    try {
      const { far } = await scrolledTo('jupyter_sphinx.embed_widgets');
      expect(far!.top).to.be.within(0, window.innerHeight);
      // A match in sight at the top (the title): the page stays at its top.
      expect((await scrolledTo('embedding widgets')).scrolled).to.equal(0);
    } finally {
      window.scrollTo(0, 0);
    }
  });

  it('does nothing without the parameter', async () => {
    const container = await fixture<HTMLDivElement>(html`<div role="main"><p>retry</p></div>`);
    expect(highlightSearchedTerms(container)).to.equal(0);
    expect(container.querySelector('mark')).to.equal(null);
  });
});

/** A theme fixture of the unit tests (real pages trimmed to their structure), as the browser parses it. */
async function themePage(theme: string): Promise<Document> {
  const response = await fetch(new URL(`../../extraction/structure/fixtures/${theme}.html`, import.meta.url));
  return new DOMParser().parseFromString(await response.text(), 'text/html');
}

describe('main content detection in the browser', () => {
  it('finds the content of a page with neither role=main nor <main> (the site name in a header <h1>)', async () => {
    const page = await themePage('django');
    const content = mainContent(page);
    expect(content.id).to.equal('s-django-admin-and-manage-py');
    expect(content.querySelector('h1')!.textContent).to.contain('django-admin and manage.py');
    expect(content.contains(page.querySelector('[role="navigation"]'))).to.equal(false);
  });

  it('narrows a <main> that holds the navigation to the article beside it', async () => {
    const page = await themePage('mkdocs-material');
    const content = mainContent(page);
    expect(content.localName).to.equal('article');
    expect(content.querySelector('nav')).to.equal(null);
  });

  it('gives previews to links in that content by default, and not to the header or sidebar', async () => {
    const page = await themePage('django');
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    container.append(...[...page.body.children].map((child) => document.importNode(child, true)));
    const preview = document.createElement('doclens-preview');
    preview.proxy = 'http://127.0.0.1:9';
    container.append(preview);
    const inContent = document.createElement('a');
    inContent.href = 'settings.html#debug';
    inContent.textContent = 'DEBUG';
    container.querySelector('#s-django-admin-and-manage-py p')!.append(inContent);
    const inHeader = container.querySelector<HTMLAnchorElement>('#hd a[href]')!;
    const original = window.location.href;
    // Where the page sits tells its own links from links to the site's home page.
    history.replaceState(null, '', '/en/latest/ref/django-admin.html');
    try {
      expect(preview.previewUrl(inContent)).to.be.a('string');
      expect(preview.previewUrl(inHeader)).to.equal(undefined);
      // An author's selector still wins.
      preview.selector = '#hd';
      expect(preview.previewUrl(inHeader)).to.be.a('string');
      expect(preview.previewUrl(inContent)).to.equal(undefined);
    } finally {
      history.replaceState(null, '', original);
    }
  });
});
