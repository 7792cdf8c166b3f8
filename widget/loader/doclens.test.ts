import { expect, fixture, html } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { installThemeShortcuts } from '../search/theme-shortcuts.fixture.ts';
import { servers, until } from '../test-support.ts';
import { themeSearchBoxes } from './theme-search.ts';

/** Loads a page in an iframe and resolves with its window once it fired `load`. */
async function frame(
  src: string,
  srcdoc?: string,
  [width, height] = [900, 600],
): Promise<{ iframe: HTMLIFrameElement; win: Window & typeof globalThis; doc: Document }> {
  const iframe = document.createElement('iframe');
  iframe.style.width = `${width}px`;
  iframe.style.height = `${height}px`;
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  if (srcdoc !== undefined) iframe.srcdoc = srcdoc;
  else iframe.src = src;
  document.body.append(iframe);
  await loaded;
  const win = iframe.contentWindow as Window & typeof globalThis;
  return { iframe, win, doc: win.document };
}

const bundle = new URL('/dist/doclens.js', location.href).href;
const tag = (attributes = '') => `<script type="module" src="${bundle}" data-proxy="${servers.proxy}" ${attributes}></script>`;

function page(head: string, body = '<div role="main"><p>Text</p></div>'): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
}

describe('the doclens.js loader', () => {
  afterEach(() => {
    for (const iframe of document.querySelectorAll('iframe')) iframe.remove();
  });

  it('mounts search, previews and the switcher with one tag, taking project and version from meta tags', async () => {
    const { doc } = await frame(
      '',
      page(`<meta name="readthedocs-project-slug" content="aurora"><meta name="readthedocs-version-slug" content="2.0">${tag()}`),
    );
    await until(
      () => !!doc.querySelector('doclens-search') && !!doc.querySelector('doclens-preview') && !!doc.querySelector('doclens-versions'),
      'elements',
    );
    const search = doc.querySelector('doclens-search')!;
    expect(search.getAttribute('project')).to.equal('aurora');
    expect(search.getAttribute('version')).to.equal('2.0');
    expect(search.getAttribute('proxy')).to.equal(servers.proxy);
    expect(search.hasAttribute('floating')).to.equal(true);
  });

  it('prefers data attributes, then meta tags, then the URL', async () => {
    const { doc } = await frame(
      '',
      page(
        `<meta name="readthedocs-project-slug" content="aurora"><meta name="readthedocs-version-slug"
          content="2.0">${tag('data-project="skyline" data-version="latest"')}`,
      ),
    );
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    expect(doc.querySelector('doclens-search')!.getAttribute('project')).to.equal('skyline');
    expect(doc.querySelector('doclens-versions')!.getAttribute('version')).to.equal('latest');
    const { detectPage } = await import('../shared/page.ts');
    expect(detectPage({}, new URL('https://docs.example.org/es/1.0/guide/x.html'))).to.include({ version: '1.0', language: 'es' });
    // A page in a folder of a site served at its root (django-filter's `ref/filters.html`) is in no version.
    expect(detectPage({}, new URL('https://docs.example.org/ref/filters.html')).version).to.equal(undefined);
    expect(detectPage({}, new URL('https://docs.example.org/projects/plugins/en/latest/'))).to.include({
      version: 'latest',
      language: 'en',
    });
  });

  it('points every element at the files of doclens build when the tag names their folder, and at no proxy', async () => {
    const staticTag = `<script type="module" src="${bundle}" data-static="../_doclens/"></script>`;
    const { doc } = await frame('', page(staticTag));
    await until(() => !!doc.querySelector('doclens-preview') && !!doc.querySelector('doclens-versions'), 'elements');
    doc.dispatchEvent(new KeyboardEvent('keydown', { key: '/', bubbles: true }));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    const files = new URL('../_doclens/', doc.baseURI).href;
    for (const name of ['doclens-search', 'doclens-preview', 'doclens-versions'])
      expect(doc.querySelector(name)!.getAttribute('static'), name).to.equal(files);
    // Empty: the files are beside the script, wherever the page is.
    const beside = await frame('', page(`<script type="module" src="${bundle}" data-static></script>`));
    await until(() => !!beside.doc.querySelector('doclens-preview'), 'preview');
    expect(beside.doc.querySelector('doclens-preview')!.getAttribute('static')).to.equal(new URL('./', bundle).href);
  });

  it('mounts only the features asked for, and puts the search trigger where the author says', async () => {
    const { doc } = await frame(
      '',
      page(tag('data-features="search" data-search-target="#slot"'), '<header id="slot"></header><div role="main"></div>'),
    );
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    expect(doc.querySelector('#slot doclens-search')).to.not.equal(null);
    expect(doc.querySelector('doclens-preview')).to.equal(null);
    expect(doc.querySelector('doclens-versions')).to.equal(null);
  });

  it('passes data-preview-touch to the previews, and adds the matches bar only to a page with highlighted words', async () => {
    const { doc, win } = await frame('', page(tag('data-features="preview" data-preview-touch="off"')));
    await until(() => !!doc.querySelector('doclens-preview'), 'preview');
    // The element's code comes once the page is idle.
    await win.customElements.whenDefined('doclens-preview');
    expect(doc.querySelector('doclens-preview')!.touch).to.equal('off');
    expect(doc.querySelector('doclens-matches')).to.equal(null);
  });

  it('on a phone, shows the preview of a link tapped before the preview code came, as a later tap does', async () => {
    const target = `${servers.docs}/en/latest/glossary.html#term-job`;
    // The page taps the link the moment doclens puts its preview element in, before any of the element's code can come.
    const tapAtMount = `<script>
      window.taps = [];
      const link = document.getElementById('term');
      link.addEventListener('click', (event) => {
        window.taps.push({ followed: !event.defaultPrevented, codeThere: !!customElements.get('doclens-preview') });
        event.preventDefault();
      });
      new MutationObserver((changes, observer) => {
        if (!document.querySelector('doclens-preview')) return;
        observer.disconnect();
        link.dispatchEvent(new PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true }));
        link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
      }).observe(document.body, { childList: true });
    </script>`;
    const { doc, win } = await frame(
      '',
      page(
        tag(`data-features="preview" data-preview-domains="${new URL(servers.docs).host}"`),
        `<div role="main"><p>A <a id="term" href="${target}">job</a> runs.</p></div>${tapAtMount}`,
      ),
      [390, 844],
    );
    const taps = () => (win as unknown as { taps: { followed: boolean; codeThere: boolean }[] }).taps;
    await until(() => taps().length > 0, 'the tap');
    expect(taps()).to.deep.equal([{ followed: false, codeThere: false }]);
    await until(() => !!doc.querySelector('doclens-preview')?.shadowRoot?.querySelector('[part~="content"]'), 'the preview shown', 10_000);
    // Open, as after a first tap: a second tap on the link follows it.
    const preview = doc.querySelector('doclens-preview')!;
    expect(preview.shadowRoot!.querySelector('[popover]')!.matches(':popover-open')).to.equal(true);
    const link = doc.getElementById('term')!;
    link.dispatchEvent(new win.PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true }));
    link.dispatchEvent(new win.MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(taps().at(-1)).to.deep.equal({ followed: true, codeThere: true });
  });

  it('loads the code of elements an author placed, with no feature of its own', async () => {
    const placed = `<doclens-search proxy="${servers.proxy}" project="aurora" version="latest"></doclens-search><div
      role="main"><p>Text</p></div>`;
    const { doc, win } = await frame('', page(tag('data-features=""'), placed));
    await win.customElements.whenDefined('doclens-search');
    await until(
      () => !!doc.querySelector('doclens-search')?.shadowRoot?.querySelector('[part~="trigger"]'),
      'the placed search renders its trigger',
    );
    expect(doc.querySelectorAll('doclens-search').length).to.equal(1);
    expect(doc.querySelector('doclens-preview')).to.equal(null);
  });

  it('loads no preview code while the reader has previews off, and loads it when they turn them on', async () => {
    localStorage.setItem('doclens:settings', JSON.stringify({ previews: false }));
    try {
      const { win } = await frame(
        '',
        page(tag('data-features="preview,versions"'), '<div role="main"><p>See <a href="other.html">other</a>.</p></div>'),
      );
      // The code the loader loads once the page is idle is in: the switcher's.
      await win.customElements.whenDefined('doclens-versions');
      expect(win.customElements.get('doclens-preview'), 'no preview code').to.equal(undefined);
      const turnedOn = win.performance.now();
      win.dispatchEvent(new win.CustomEvent('doclens-settings-change', { detail: { previews: true } }));
      await win.customElements.whenDefined('doclens-preview');
      // Its code was asked for once, and only after the reader turned previews on.
      const requests = win.performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.match(/\/doclens-preview-[^/]*\.js$/));
      expect(requests.map((entry) => entry.startTime >= turnedOn)).to.deep.equal([true]);
    } finally {
      localStorage.removeItem('doclens:settings');
    }
  });

  it("floats its own button when the theme's box is far down the page, as phones put a sidebar (Werkzeug, Kombu)", async () => {
    const { doc, win } = await frame(
      '',
      page(
        tag('data-features="search"'),
        '<div role="main"><h1>Quickstart</h1><p style="height: 3000px">Text</p></div>' +
          '<div role="navigation"><form action="search.html"><input name="q"></form></div>',
      ),
    );
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    await win.customElements.whenDefined('doclens-search');
    const search = doc.querySelector('doclens-search')!;
    expect(search.hasAttribute('floating')).to.equal(true);
    expect(search.hasAttribute('no-trigger')).to.equal(false);
  });

  it("floats its own button on a phone when the theme's box is clipped away by its bar (Astropy), and a tap on it opens", async () => {
    const astropy = await (await fetch('/test/fixtures/real-docs/astropy/index.html')).text();
    const { doc, win } = await frame('', astropy.replace('</head>', `${tag('data-features="search"')}</head>`), [390, 844]);
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    await win.customElements.whenDefined('doclens-search');
    const search = doc.querySelector('doclens-search')!;
    expect(search.hasAttribute('floating')).to.equal(true);
    expect(search.hasAttribute('no-trigger')).to.equal(false);
    const trigger = search.shadowRoot!.querySelector<HTMLElement>('[part~="trigger"]')!;
    const { x, y, width, height } = trigger.getBoundingClientRect();
    expect(doc.elementFromPoint(x + width / 2, y + height / 2)).to.equal(search);
    trigger.click();
    await until(() => search.open, 'doclens opened by its button');
  });

  it("adds no button where the theme's box is under its own label, which passes a tap on to it", async () => {
    const { doc, win } = await frame(
      '',
      page(
        tag('data-features="search"'),
        '<form action="search.html" style="position: relative"><input id="q" name="q">' +
          '<label for="q" style="position: absolute; inset: 0">Search the docs</label></form><div role="main"></div>',
      ),
    );
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    await win.customElements.whenDefined('doclens-search');
    expect(doc.querySelector('doclens-search')!.hasAttribute('no-trigger')).to.equal(true);
  });

  it("opens from mkdocs-material's header search button, and leaves the theme's search overlay closed when it closes", async () => {
    // mkdocs-material's partials/search.html: a checkbox shows the search by CSS; labels for it check and uncheck it.
    const material =
      '<style>.md-search { display: none } #__search:checked ~ .md-search { display: block }</style>' +
      '<input class="md-toggle" data-md-toggle="search" type="checkbox" id="__search" autocomplete="off">' +
      '<header><label class="md-header__button md-icon" for="__search" aria-label="Search">⌕</label></header>' +
      '<div class="md-search" data-md-component="search" role="dialog"><label class="md-search__overlay" for="__search"></label>' +
      '<div class="md-search__inner" role="search"><form class="md-search__form" name="search">' +
      '<input type="text" class="md-search__input" name="query" aria-label="Search" placeholder="Search" required>' +
      '<label class="md-search__icon md-icon" for="__search">←</label></form></div></div>' +
      '<div role="main"><h1>Skyline</h1><p>Text</p></div>';
    const { doc, win } = await frame('', page(tag('data-features="search"'), material));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    await win.customElements.whenDefined('doclens-search');
    const search = doc.querySelector('doclens-search')!;
    const toggle = doc.querySelector<HTMLInputElement>('#__search')!;
    // The header's button is the way to search on a phone: no floating button of doclens' own.
    expect(search.hasAttribute('no-trigger')).to.equal(true);
    doc.querySelector<HTMLElement>('.md-header__button')!.click();
    await until(() => search.open, 'doclens opened by the header button');
    toggle.checked = true;
    await search.hide();
    await until(() => !toggle.checked, "the theme's search overlay closed");
  });

  it('opens from the theme search box instead of adding a button', async () => {
    const { doc, win } = await frame(
      '',
      page(
        tag('data-features="search"'),
        '<form id="rtd-search-form" action="search.html"><input name="q" value="lease"></form><div role="main"></div>',
      ),
    );
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    await win.customElements.whenDefined('doclens-search');
    const search = doc.querySelector('doclens-search')!;
    expect(search.hasAttribute('no-trigger')).to.equal(true);
    const themeInput = doc.querySelector<HTMLInputElement>('input[name="q"]')!;
    themeInput.focus();
    expect(search.open).to.equal(false);
    themeInput.click();
    await until(
      () => search.querySelector<HTMLInputElement>('input[role="combobox"]')?.value === 'lease',
      'dialog opened from the theme box with its words',
    );
    expect(search.open).to.equal(true);
  });

  it("hands over from every theme box with every character typed, the first included, and closes the theme's own search", async () => {
    const theme = `<header><form role="search" action="search.html"><input name="q" id="header-box"
      aria-label="Search"><button>Go</button></form></header>
      <nav style="display: none"><form action="search.html" id="menu-form"><input name="q" aria-label="Search"></form></nav>
      <a href="#search-modal" id="search-link">Search</a>
      <div id="search-modal" role="dialog" aria-label="Search" hidden><input type="search" aria-label="Search"></div>
      <div role="main"><p>Text</p></div>
      <script>
        // As mkdocs-material and pydata do: focus in the box opens an overlay, Escape closes it.
        document.getElementById('header-box').addEventListener('focus', () => document.body.classList.add('searching'));
        window.addEventListener('keydown', (event) => event.key === 'Escape' && document.body.classList.remove('searching'));
        // As Bootstrap does for the MkDocs theme: a delegated click handler opens the modal.
        document.addEventListener('click', (event) => {
          if (event.target.closest('#search-link')) document.getElementById('search-modal').hidden = false;
        });
      </script>`;
    const { doc, win } = await frame('', page(tag('data-features="search"'), theme));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    const search = doc.querySelector('doclens-search')!;
    const field = () => search.querySelector<HTMLInputElement>('input[role="combobox"]');
    const box = doc.querySelector<HTMLInputElement>('#header-box')!;
    const shortcuts = installThemeShortcuts(win, box);
    const address = win.location.href;
    try {
      box.focus();
      expect(doc.body.classList.contains('searching')).to.equal(true);
      await sendKeys({ type: 'retry' });
      await until(() => field()?.value === 'retry', '"retry" in the doclens field');
      expect(doc.activeElement).to.equal(field());
      expect(doc.body.classList.contains('searching'), 'the theme overlay is closed').to.equal(false);
      expect(box.value).to.equal('');
      expect(shortcuts.actions).to.deep.equal([]);
      await sendKeys({ press: 'Escape' });
      await until(() => !search.open, 'closed by Escape');
      expect(doc.activeElement, "focus back in the theme's box").to.equal(box);
      expect(doc.body.classList.contains('searching'), 'the theme overlay stays closed once doclens is').to.equal(false);

      // Keys that come before doclens has focus (in one task, as when the reader types fast) are kept too.
      box.focus();
      for (const key of ['s', 'l', 'o', 'w']) box.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      await until(() => field()?.value === 'slow', '"slow" in the doclens field');
      search.shadowRoot!.querySelector<HTMLButtonElement>('button.close')!.click();
      await until(() => !search.open, 'closed by its close button');
      expect(doc.activeElement, "focus back in the theme's box after the close button").to.equal(box);
      // Those keys were sent to the theme's box after it lost focus, as no reader's could be.
      shortcuts.actions.length = 0;

      doc.querySelector<HTMLFormElement>('#menu-form')!.requestSubmit();
      await until(() => search.open, "open from the hidden box's form");
      await search.hide();
      doc.querySelector<HTMLFormElement>('header form')!.querySelector('button')!.click();
      await until(() => search.open, "open from the header form's button");
      await search.hide();

      doc.querySelector<HTMLAnchorElement>('#search-link')!.click();
      await until(() => search.open, "open from the link to the theme's search modal");
      expect(doc.querySelector<HTMLElement>('#search-modal')!.hidden, 'the theme modal stays closed').to.equal(true);
      await search.hide();
      expect(win.location.href).to.equal(address);
      expect(shortcuts.actions).to.deep.equal([]);
    } finally {
      shortcuts.remove();
    }
  });

  it('closes a theme search that is a modal dialog or a popover when its box hands over', async () => {
    const theme = `<dialog id="theme-dialog"><form role="search" action="search.html"><input name="q" aria-label="Search"></form></dialog>
      <div popover id="theme-popover"><input type="search" aria-label="Search"></div><div role="main"><p>Text</p></div>`;
    const { doc } = await frame('', page(tag('data-features="search"'), theme));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    const search = doc.querySelector('doclens-search')!;
    const field = () => search.querySelector<HTMLInputElement>('input[role="combobox"]');
    const themeDialog = doc.querySelector<HTMLDialogElement>('#theme-dialog')!;
    themeDialog.showModal();
    themeDialog.querySelector('input')!.focus();
    await sendKeys({ type: 'a/b' });
    await until(() => field()?.value === 'a/b', '"a/b" in the doclens field');
    expect(themeDialog.open).to.equal(false);
    await search.hide();
    const popover = doc.querySelector<HTMLElement>('#theme-popover')!;
    popover.showPopover();
    popover.querySelector('input')!.focus();
    await sendKeys({ type: 'np' });
    await until(() => field()?.value === 'np', '"np" in the doclens field');
    expect(popover.matches(':popover-open')).to.equal(false);
  });

  it("closes the theme's search modal, and its focus trap, when the doclens shortcut opens doclens over it", async () => {
    const theme = `<div id="modal" role="dialog" aria-label="Search" hidden><form><input type="search" id="modal-box"
      aria-label="Search"></form></div>
      <div role="main"><p>Text</p></div>
      <script>
        // As Bootstrap's modal does (the MkDocs theme's search): Escape in it hides it; while shown, focus is kept in it.
        const modal = document.getElementById('modal');
        modal.addEventListener('keydown', (event) => event.keyCode === 27 && (modal.hidden = true));
        document.addEventListener('focusin', (event) => {
          if (!modal.hidden && !modal.contains(event.target)) document.getElementById('modal-box').focus();
        });
      </script>`;
    const { doc } = await frame('', page(tag('data-features="search"'), theme));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    const search = doc.querySelector('doclens-search')!;
    const modal = doc.querySelector<HTMLElement>('#modal')!;
    modal.hidden = false;
    doc.querySelector<HTMLInputElement>('#modal-box')!.focus();
    await sendKeys({ press: 'Control+k' });
    await until(() => search.open, 'open by Ctrl+K');
    await search.updateComplete;
    expect(modal.hidden, 'the theme modal is closed').to.equal(true);
    await sendKeys({ type: 'lease' });
    expect(search.querySelector<HTMLInputElement>('input[role="combobox"]')!.value).to.equal('lease');
  });

  it("finds the theme's search boxes from the structure of the page, those in view first", async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <input type="search" id="hidden-search" style="display: none" />
      <div role="search"><input id="landmark" /></div>
      <form action="/docs/search/"><input name="query" id="to-search-page" /></form>
      <form name="search"><input type="text" id="named-form" /></form>
      <form action="/subscribe"><input name="email" id="newsletter" /></form>
      <form action="search.html"><input type="checkbox" id="option" /></form>
    </div>`);
    expect(themeSearchBoxes().map((box) => box.id)).to.deep.equal(['landmark', 'to-search-page', 'named-form', 'hidden-search']);
    container.remove();
  });

  it("opens with the words the site's search page was opened with (Sphinx's search.html?q=…), as its theme's box would", async () => {
    const query = new URLSearchParams({ proxy: servers.proxy, q: 'lease' });
    const { doc } = await frame(`/widget/loader/test-pages/search.html?${query}`);
    await until(() => doc.querySelector('doclens-search')?.hasAttribute('open') === true, 'the dialog open');
    const search = doc.querySelector('doclens-search')!;
    expect(search.querySelector<HTMLInputElement>('input[role="combobox"]')!.value).to.equal('lease');
    await until(() => search.shadowRoot!.querySelectorAll('[role="option"]').length > 0, 'results');
  });

  it('opens with no words on a page whose address has some that no search box of its own is for', async () => {
    const query = new URLSearchParams({ proxy: servers.proxy, other: 'lease' });
    const { doc } = await frame(`/widget/loader/test-pages/search.html?${query}`);
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(doc.querySelector('doclens-search')!.hasAttribute('open')).to.equal(false);
  });

  it('is harmless loaded twice, or on a page that already defines the elements', async () => {
    const { doc, win } = await frame(
      '',
      page(`${tag()}${tag()}<script type="module" src="${new URL('/dist/doclens.iife.js', location.href).href}"></script>`),
    );
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    // Every loader has run (mounting happens on the load event) and the code loaded when idle is in.
    await Promise.all(['doclens-search', 'doclens-versions'].map((name) => win.customElements.whenDefined(name)));
    expect(doc.querySelectorAll('doclens-search').length).to.equal(1);
    expect(doc.querySelectorAll('doclens-preview').length).to.equal(1);
    expect(win.doclens?.version).to.match(/^\d+\.\d+\.\d+/);
  });

  it('takes strings an author supplies, and follows theme variables and dark-mode switches', async () => {
    const strings = '<script type="application/json" id="doclens-strings">{"en": {"searchButton": "Find it"}}</script>';
    const { doc } = await frame(
      '',
      page(
        `${strings}<style>doclens-search { --doclens-color-surface: rgb(1, 2, 3); } ` +
          `[data-md-color-scheme="slate"] { background-color: #1e2129; }</style>${tag('data-features="search"')}`,
      ),
    );
    await until(() => !!doc.querySelector('doclens-search')?.shadowRoot?.querySelector('[part~="trigger"]'), 'trigger');
    const search = doc.querySelector('doclens-search')!;
    expect(search.shadowRoot!.querySelector('[part~="trigger"]')!.textContent).to.contain('Find it');
    expect(getComputedStyle(search.shadowRoot!.querySelector('kbd')!).backgroundColor).to.equal('rgb(1, 2, 3)');
    expect(search.getAttribute('scheme')).to.equal('light');
    doc.body.dataset.mdColorScheme = 'slate';
    await until(() => search.getAttribute('scheme') === 'dark', 'dark scheme from mkdocs-material');
  });

  /** Hovers the strict page's link until its preview shows `shown`, then checks that nothing broke the page's policy. */
  async function previewOnStrictPage(doc: Document, win: Window, iframe: HTMLIFrameElement, shown: string) {
    const box = doc.getElementById('term')!.getBoundingClientRect();
    const offset = iframe.getBoundingClientRect();
    await sendMouse({
      type: 'move',
      position: [Math.round(offset.left + box.left + 5), Math.round(offset.top + box.top + box.height / 2)],
    });
    const preview = doc.querySelector('doclens-preview')!;
    await until(() => !!preview.shadowRoot!.querySelector(shown), shown);
    await resetMouse();
    expect((win as unknown as { violations: string[] }).violations).to.deep.equal([]);
  }

  it('works on a page with a strict CSP and Trusted Types, without a single violation', async () => {
    const query = new URLSearchParams({ proxy: servers.proxy, docs: servers.docs });
    const { doc, win, iframe } = await frame(`/widget/loader/test-pages/strict.html?${query}`);
    await until(() => !!doc.querySelector('doclens-search')?.shadowRoot?.querySelector('[part~="trigger"]'), 'search trigger');
    const search = doc.querySelector('doclens-search')!;
    search.shadowRoot!.querySelector<HTMLButtonElement>('[part~="trigger"]')!.click();
    await until(() => search.open, 'open');
    await sendKeys({ type: 'scheduler' });
    await until(() => search.shadowRoot!.querySelectorAll('[role="option"]').length > 0, 'results');
    await search.hide();
    await previewOnStrictPage(doc, win, iframe, '[part~="content"]');
  });

  it("shows a preview of a section whose page styles its elements (a table's column widths) without a violation", async () => {
    // natsort's API page: Sphinx writes a table's widths as `<col style="width: 27%">`, which a strict style-src refuses.
    const query = new URLSearchParams({
      proxy: servers.real.proxy,
      docs: servers.real.docs,
      target: 'natsort/api.html#help-with-type-hinting',
    });
    const { doc, win, iframe } = await frame(`/widget/loader/test-pages/strict.html?${query}`);
    await until(() => !!doc.querySelector('doclens-preview')?.shadowRoot, 'previews');
    await previewOnStrictPage(doc, win, iframe, '[part~="content"] table col');
  });

  it("lays out a preview's formulas on a page with a strict CSP and Trusted Types, without a single violation", async () => {
    const target =
      'scipy/reference/generated/scipy.spatial.transform.Rotation.align_vectors.html#scipy.spatial.transform.Rotation.align_vectors';
    const query = new URLSearchParams({ proxy: servers.real.proxy, docs: servers.real.docs, target });
    const { doc, win, iframe } = await frame(`/widget/loader/test-pages/strict.html?${query}`);
    await until(() => !!doc.querySelector('doclens-preview')?.shadowRoot, 'previews');
    await previewOnStrictPage(doc, win, iframe, '[part~="content"] math');
  });
});
