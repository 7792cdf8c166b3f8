import { expect } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { servers, until } from '../test-support.ts';

/** Loads a page in an iframe and resolves with its window once it fired `load`. */
async function frame(src: string, srcdoc?: string): Promise<{ iframe: HTMLIFrameElement; win: Window & typeof globalThis; doc: Document }> {
  const iframe = document.createElement('iframe');
  iframe.style.width = '900px';
  iframe.style.height = '600px';
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
    const { doc } = await frame('', page(`<meta name="readthedocs-project-slug" content="aurora"><meta name="readthedocs-version-slug" content="2.0">${tag()}`));
    await until(() => !!doc.querySelector('doclens-search') && !!doc.querySelector('doclens-preview') && !!doc.querySelector('doclens-versions'), 'elements');
    const search = doc.querySelector('doclens-search')!;
    expect(search.getAttribute('project')).to.equal('aurora');
    expect(search.getAttribute('version')).to.equal('2.0');
    expect(search.getAttribute('proxy')).to.equal(servers.proxy);
    expect(search.hasAttribute('floating')).to.equal(true);
  });

  it('prefers data attributes, then meta tags, then the URL', async () => {
    const { doc } = await frame('', page(`<meta name="readthedocs-project-slug" content="aurora"><meta name="readthedocs-version-slug" content="2.0">${tag('data-project="skyline" data-version="latest"')}`));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    expect(doc.querySelector('doclens-search')!.getAttribute('project')).to.equal('skyline');
    expect(doc.querySelector('doclens-versions')!.getAttribute('version')).to.equal('latest');
    const { detectPage } = await import('../shared/page.ts');
    expect(detectPage({}, new URL('https://docs.example.org/es/1.0/guide/x.html'))).to.include({ version: '1.0', language: 'es' });
    expect(detectPage({}, new URL('https://docs.example.org/projects/plugins/en/latest/'))).to.include({ version: 'latest', language: 'en' });
  });

  it('mounts only the features asked for, and puts the search trigger where the author says', async () => {
    const { doc } = await frame('', page(tag('data-features="search" data-search-target="#slot"'), '<header id="slot"></header><div role="main"></div>'));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    expect(doc.querySelector('#slot doclens-search')).to.not.equal(null);
    expect(doc.querySelector('doclens-preview')).to.equal(null);
    expect(doc.querySelector('doclens-versions')).to.equal(null);
  });

  it('opens from the theme search box instead of adding a button', async () => {
    const { doc } = await frame('', page(tag('data-features="search"'), '<form id="rtd-search-form" action="search.html"><input name="q" value="lease"></form><div role="main"></div>'));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    const search = doc.querySelector('doclens-search')!;
    expect(search.hasAttribute('no-trigger')).to.equal(true);
    const themeInput = doc.querySelector<HTMLInputElement>('input[name="q"]')!;
    themeInput.focus();
    expect(search.open).to.equal(false);
    themeInput.click();
    await until(() => search.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')?.value === 'lease', 'dialog opened from the theme box with its words');
    expect(search.open).to.equal(true);
  });

  it('is harmless loaded twice, or on a page that already defines the elements', async () => {
    const { doc, win } = await frame('', page(`${tag()}${tag()}<script type="module" src="${new URL('/dist/doclens.iife.js', location.href).href}"></script>`));
    await until(() => !!doc.querySelector('doclens-search'), 'search');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(doc.querySelectorAll('doclens-search').length).to.equal(1);
    expect(doc.querySelectorAll('doclens-preview').length).to.equal(1);
    expect(win.doclens?.version).to.match(/^\d+\.\d+\.\d+/);
  });

  it('takes strings an author supplies, and follows theme variables and dark-mode switches', async () => {
    const strings = '<script type="application/json" id="doclens-strings">{"en": {"searchButton": "Find it"}}</script>';
    const { doc } = await frame('', page(`${strings}<style>doclens-search { --doclens-color-surface: rgb(1, 2, 3); }</style>${tag('data-features="search"')}`));
    await until(() => !!doc.querySelector('doclens-search')?.shadowRoot?.querySelector('.trigger'), 'trigger');
    const search = doc.querySelector('doclens-search')!;
    expect(search.shadowRoot!.querySelector('.trigger')!.textContent).to.contain('Find it');
    expect(getComputedStyle(search.shadowRoot!.querySelector('kbd')!).backgroundColor).to.equal('rgb(1, 2, 3)');
    expect(search.getAttribute('scheme')).to.equal('light');
    doc.body.dataset.mdColorScheme = 'slate';
    await until(() => search.getAttribute('scheme') === 'dark', 'dark scheme from mkdocs-material');
  });

  it('works on a page with a strict CSP and Trusted Types, without a single violation', async () => {
    const query = new URLSearchParams({ proxy: servers.proxy, docs: servers.docs });
    const { doc, win, iframe } = await frame(`/widget/loader/test-pages/strict.html?${query}`);
    await until(() => !!doc.querySelector('doclens-search')?.shadowRoot?.querySelector('.trigger'), 'search trigger');
    const search = doc.querySelector('doclens-search')!;
    search.shadowRoot!.querySelector<HTMLButtonElement>('.trigger')!.click();
    await until(() => search.open, 'open');
    await sendKeys({ type: 'scheduler' });
    await until(() => search.shadowRoot!.querySelectorAll('[role="option"]').length > 0, 'results');
    const link = doc.getElementById('term')!;
    const box = link.getBoundingClientRect();
    const offset = iframe.getBoundingClientRect();
    await search.hide();
    await sendMouse({ type: 'move', position: [Math.round(offset.left + box.left + 5), Math.round(offset.top + box.top + box.height / 2)] });
    const preview = doc.querySelector('doclens-preview')!;
    await until(() => !!preview.shadowRoot!.querySelector('.content'), 'preview content');
    await resetMouse();
    expect((win as unknown as { violations: string[] }).violations).to.deep.equal([]);
  });
});
