import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../preview/doclens-preview.ts';
import '../search/doclens-search.ts';
import '../versions/doclens-versions.ts';
import { servers, until } from '../test-support.ts';

/** Inherited text styles of a theme that would bend the widget's own text. */
const PAGE_TEXT_STYLES = {
  textAlign: 'center',
  textTransform: 'uppercase',
  letterSpacing: '3px',
  lineHeight: '3',
  fontStyle: 'italic',
  whiteSpace: 'pre',
  cursor: 'wait',
} as const;

function expectOwnTextStyles(node: Element | null | undefined, name: string): void {
  expect(node, name).to.be.instanceOf(Element);
  const style = getComputedStyle(node!);
  expect(style.textAlign, `${name} text-align`).to.be.oneOf(['start', 'left']);
  expect(style.textTransform, `${name} text-transform`).to.equal('none');
  expect(style.letterSpacing, `${name} letter-spacing`).to.equal('normal');
  expect(style.fontStyle, `${name} font-style`).to.equal('normal');
  expect(style.whiteSpace, `${name} white-space`).to.equal('normal');
  expect(parseFloat(style.lineHeight), `${name} line-height`).to.be.below(2 * parseFloat(style.fontSize));
  expect(style.cursor, `${name} cursor`).to.not.equal('wait');
}

describe('theme styles', () => {
  beforeEach(() => Object.assign(document.body.style, PAGE_TEXT_STYLES));
  afterEach(() => {
    for (const name of Object.keys(PAGE_TEXT_STYLES))
      document.body.style.removeProperty(name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`));
  });

  it("keep the page's inherited text styles out of previews, the switcher and the search dialog", async () => {
    const docs = servers.docs;
    const container = await fixture<HTMLDivElement>(html`<div>
      <div role="main"><p><a id="term" href=${`${docs}/en/latest/glossary.html#term-job`}>job</a></p></div>
      <doclens-preview proxy=${servers.proxy} domains=${new URL(docs).host}></doclens-preview>
      <doclens-versions proxy=${servers.proxy} page-url=${`${docs}/en/1.0/installation.html`} placement="inline"></doclens-versions>
      <doclens-search proxy=${servers.proxy}></doclens-search>
    </div>`);
    expect(getComputedStyle(container).textTransform, 'the page itself').to.equal('uppercase');

    const preview = container.querySelector('doclens-preview')!;
    await preview.show(container.querySelector<HTMLAnchorElement>('#term')!);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] > *'), 'preview content');
    for (const name of ['title', 'more']) expectOwnTextStyles(preview.shadowRoot!.querySelector(`[part~="${name}"]`), `preview ${name}`);
    expectOwnTextStyles(preview.shadowRoot!.querySelector('[part~="content"] > *'), 'preview text');
    await preview.hide();

    const versions = container.querySelector('doclens-versions')!;
    await until(() => !!versions.shadowRoot!.querySelector('[part~="notice"]'), 'switcher');
    await versions.show();
    expectOwnTextStyles(versions.shadowRoot!.querySelector('[part~="notice"] span'), 'notice');
    expectOwnTextStyles(versions.shadowRoot!.querySelector('[part~="item"]'), 'menu item');
    await versions.hide();

    const search = container.querySelector('doclens-search')!;
    await search.show('job');
    await until(() => !!search.shadowRoot!.querySelector('[role="option"]'), 'search results');
    expectOwnTextStyles(search.shadowRoot!.querySelector('[role="option"]'), 'search result');
    expectOwnTextStyles(search.querySelector('input'), 'search field');
    await search.hide();
  });

  it("keep the page's direction, and stay hidden where the page hides them", async () => {
    const container = await fixture<HTMLDivElement>(html`<div dir="rtl">
      <nav style="visibility: hidden">
        <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/latest/installation.html`}
          placement="inline"></doclens-versions>
      </nav>
    </div>`);
    const versions = container.querySelector('doclens-versions')!;
    await until(() => !!versions.shadowRoot!.querySelector('[part~="toggle"]'), 'switcher');
    const toggle = getComputedStyle(versions.shadowRoot!.querySelector('[part~="toggle"]')!);
    expect(toggle.direction).to.equal('rtl');
    expect(toggle.visibility).to.equal('hidden');
  });
});

/** A theme's stylesheet, as the page's own (it paints the body). */
function themeStyle(css: string): HTMLStyleElement {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  return style;
}

describe('colour scheme', () => {
  let style: HTMLStyleElement | undefined;
  afterEach(async () => {
    style?.remove();
    document.documentElement.removeAttribute('data-theme');
    await emulateMedia({ colorScheme: 'light' });
  });

  const switcher = async (attributes = '') => {
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    container.innerHTML = `<doclens-search ${attributes} proxy="${servers.proxy}"></doclens-search>`;
    const search = container.querySelector('doclens-search')!;
    await search.updateComplete;
    return search;
  };

  it('stays light on a light-only theme (Alabaster: a white body, no dark mode) whatever the system says', async () => {
    style = themeStyle('body { background-color: #fff; color: #3e4349; }');
    await emulateMedia({ colorScheme: 'dark' });
    const search = await switcher();
    expect(search.getAttribute('scheme')).to.equal('light');
  });

  it("reads the box behind the text, not the page around it (Django's docs: white text box on a dark green page)", async () => {
    style = themeStyle(
      'html, body { background: #092e20; } #bd { background: #234f32; } #yui-main .yui-b { background: white; color: black; }',
    );
    const container = await fixture<HTMLDivElement>(
      html`<div id="bd"><div id="yui-main"><div class="yui-b"
        role="main"><h1>URL dispatcher</h1><p>A clean, elegant URL scheme is an important detail.</p></div></div></div>`,
    );
    const search = await switcher();
    expect(search.getAttribute('scheme')).to.equal('light');
    container.remove();
  });

  it('follows, live, a theme whose stylesheet follows the system (Furo: prefers-color-scheme)', async () => {
    style = themeStyle(
      'body { background-color: #fff; } ' +
        '@media (prefers-color-scheme: dark) { body:not([data-theme="light"]) { background-color: #131416; } }',
    );
    const search = await switcher();
    expect(search.getAttribute('scheme')).to.equal('light');
    await emulateMedia({ colorScheme: 'dark' });
    await until(() => search.getAttribute('scheme') === 'dark', 'dark with the system');
    await emulateMedia({ colorScheme: 'light' });
    await until(() => search.getAttribute('scheme') === 'light', 'light again');
  });

  it("follows, live, a theme's own switch (pydata-sphinx-theme: html[data-theme]), and an author's scheme attribute wins", async () => {
    style = themeStyle('html[data-theme="dark"] body { background-color: #14181e; color: #ced6dd; }');
    const search = await switcher();
    const fixed = await switcher('scheme="light"');
    expect(search.getAttribute('scheme')).to.equal('light');
    document.documentElement.dataset.theme = 'dark';
    await until(() => search.getAttribute('scheme') === 'dark', 'dark with the theme');
    expect(fixed.getAttribute('scheme')).to.equal('light');
    // A switch attribute that paints nothing (a theme without a dark style) changes nothing.
    style.textContent = '';
    await until(() => search.getAttribute('scheme') === 'light', 'light: the page paints light');
  });
});
