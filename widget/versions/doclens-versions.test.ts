import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { DoclensVersions } from './doclens-versions.ts';
import './doclens-versions.ts';
import { nextFrame, servers, until, watchFetches } from '../test-support.ts';

async function switcher(path: string, extra: Partial<{ lang: string; placement: 'inline' | 'floating' }> = {}): Promise<DoclensVersions> {
  const container = await fixture<HTMLDivElement>(html`<div lang=${extra.lang ?? 'en'}>
    <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}${path}`}
      placement=${extra.placement ?? 'inline'}></doclens-versions>
  </div>`);
  const element = container.querySelector('doclens-versions')!;
  await until(() => !!part(element, 'switcher'), 'page context');
  await element.updateComplete;
  return element;
}

const part = (element: DoclensVersions, name: string) => element.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

const items = (element: DoclensVersions) => [...element.shadowRoot!.querySelectorAll<HTMLAnchorElement>('[role="menu"] a')];
const labels = (element: DoclensVersions, group: string) =>
  [...element.shadowRoot!.querySelectorAll(`[aria-labelledby="${group}-label"] a > span:first-child`)].map((span) => span.textContent);
const item = (element: DoclensVersions, label: string) => items(element).find((link) => link.querySelector('span')!.textContent === label)!;

describe('<doclens-versions>', () => {
  afterEach(async () => {
    localStorage.clear();
    await setViewport({ width: 800, height: 600 });
  });

  it('lists active, non-hidden versions (latest and stable first, then newest) and the translations', async () => {
    const element = await switcher('/en/latest/installation.html');
    expect(part(element, 'toggle')!.textContent).to.contain('latest');
    expect(labels(element, 'versions')).to.deep.equal(['latest', 'stable', '2.0', '1.0']);
    expect(labels(element, 'languages')).to.deep.equal(['English', 'Spanish']);
    expect(item(element, 'latest').getAttribute('aria-checked')).to.equal('true');
    expect(item(element, 'stable').querySelector('[part~="detail"]')!.textContent).to.equal('→ 2.0');
    expect(item(element, '1.0').querySelector('[part~="detail"]')!.textContent).to.equal('tag');
  });

  it('goes to the same page in another version, or to its root when the page is not there', async () => {
    const element = await switcher('/en/latest/guides/observability.html');
    element.addEventListener('doclens-versions-select', (event) => event.preventDefault());
    await element.show();
    let chosen = oneEvent(element, 'doclens-versions-select');
    item(element, 'latest').click();
    expect((await chosen).detail.url).to.equal(`${servers.docs}/en/latest/guides/observability.html`);
    chosen = oneEvent(element, 'doclens-versions-select');
    item(element, '1.0').click();
    expect((await chosen).detail.url).to.equal(`${servers.docs}/en/1.0/`);
    chosen = oneEvent(element, 'doclens-versions-select');
    item(element, 'Spanish').click();
    expect((await chosen).detail.url).to.equal(`${servers.docs}/es/latest/`);

    const installation = await switcher('/en/latest/installation.html');
    installation.addEventListener('doclens-versions-select', (event) => event.preventDefault());
    await installation.show();
    chosen = oneEvent(installation, 'doclens-versions-select');
    item(installation, '2.0').click();
    expect((await chosen).detail).to.deep.include({ kind: 'version', slug: '2.0', url: `${servers.docs}/en/2.0/installation.html` });
    chosen = oneEvent(installation, 'doclens-versions-select');
    item(installation, 'Spanish').click();
    expect((await chosen).detail.url).to.equal(`${servers.docs}/es/latest/installation.html`);
  });

  it('works by keyboard as a menu button', async () => {
    const element = await switcher('/en/latest/installation.html');
    const toggle = part(element, 'toggle')!;
    expect(toggle.getAttribute('aria-haspopup')).to.equal('menu');
    toggle.focus();
    await sendKeys({ press: 'ArrowDown' });
    await element.updateComplete;
    expect(element.open).to.equal(true);
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    const focused = () => element.shadowRoot!.activeElement?.textContent;
    expect(focused()).to.contain('latest');
    await sendKeys({ press: 'ArrowDown' });
    expect(focused()).to.contain('stable');
    await sendKeys({ press: 'End' });
    expect(focused()).to.contain('Spanish');
    await sendKeys({ press: 'ArrowDown' });
    expect(focused()).to.contain('latest');
    await sendKeys({ press: 'Escape' });
    await element.updateComplete;
    expect(element.open).to.equal(false);
    expect(element.shadowRoot!.activeElement).to.equal(toggle);
    await sendKeys({ press: 'ArrowUp' });
    await element.updateComplete;
    expect(focused()).to.contain('Spanish');
    await expect(element).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
  });

  it("keeps the menu's keys from the page's own shortcuts (Sphinx turns pages on arrows)", async () => {
    const element = await switcher('/en/latest/installation.html');
    const seenByPage: string[] = [];
    const pageShortcuts = (event: KeyboardEvent) => seenByPage.push(`${event.type} ${event.key}`);
    document.addEventListener('keydown', pageShortcuts);
    document.addEventListener('keyup', pageShortcuts);
    try {
      part(element, 'toggle')!.focus();
      for (const key of ['ArrowDown', 'ArrowRight', 'ArrowLeft', 'End', 'Escape']) await sendKeys({ press: key });
      expect(seenByPage).to.deep.equal([]);
    } finally {
      document.removeEventListener('keydown', pageShortcuts);
      document.removeEventListener('keyup', pageShortcuts);
    }
  });

  it('tells readers of an old version where the stable one is, until dismissed', async () => {
    const element = await switcher('/en/1.0/installation.html');
    const notice = () => part(element, 'notice');
    expect(notice()!.textContent).to.contain('old version (1.0)');
    expect(notice()!.querySelector('a')!.href).to.equal(`${servers.docs}/en/stable/installation.html`);
    notice()!.querySelector<HTMLButtonElement>('[part~="dismiss"]')!.click();
    await element.updateComplete;
    expect(notice()).to.equal(null);
    const again = await switcher('/en/1.0/installation.html');
    expect(part(again, 'notice')).to.equal(null);
    const current = await switcher('/en/2.0/installation.html');
    expect(part(current, 'notice')).to.equal(null);
  });

  it('stays out of the way, as for a failed request, given an answer not in the shape of the contract', async () => {
    const asked = watchFetches();
    const container = await fixture<HTMLDivElement>(
      html`<div><doclens-versions proxy=${servers.hostile} page-url=${`${servers.hostile}/en/malformed.html`}></doclens-versions></div>`,
    );
    const element = container.querySelector('doclens-versions')!;
    await until(() => asked.requests.length > 0, 'the page context asked for');
    asked.restore();
    expect(await asked.requests[0]!.outcome).to.equal('read');
    await nextFrame();
    await element.updateComplete;
    expect(part(element, 'toggle')).to.equal(null);
    expect(part(element, 'switcher')).to.equal(null);
  });

  it("offers the version's downloads, with web links only, and marks branches", async () => {
    const container = await fixture<HTMLDivElement>(
      html`<div><doclens-versions proxy=${servers.hostile} placement="inline"></doclens-versions></div>`,
    );
    const element = container.querySelector('doclens-versions')!;
    await until(() => !!part(element, 'toggle'), 'page context');
    await element.show();
    const downloads = [...element.shadowRoot!.querySelectorAll<HTMLAnchorElement>('[aria-labelledby="downloads-label"] a')];
    expect(downloads.map((link) => link.textContent)).to.deep.equal(['PDF', 'EPUB']);
    expect(
      downloads.every((link) => link.getAttribute('role') === 'menuitem' && link.href.startsWith('https://docs.example.org/')),
    ).to.equal(true);
    expect(item(element, 'feature-x').querySelector('[part~="detail"]')!.textContent).to.equal('branch');
    expect(labels(element, 'languages')).to.deep.equal([]);
  });

  it('speaks the page language', async () => {
    const element = await switcher('/es/latest/installation.html', { lang: 'es' });
    await element.show();
    expect(element.shadowRoot!.querySelector('#versions-label')!.textContent).to.equal('Versiones');
    // Language names in the reader's language, from Intl.
    expect(labels(element, 'languages')).to.deep.equal(['inglés', 'español']);
    // What the toggle says to assistive technology (its visible text is hidden from it).
    expect(part(element, 'toggle')!.querySelector('span:not([aria-hidden])')!.textContent).to.contain('español');
  });

  it('marks beforehand the versions and languages the page is missing from', async () => {
    const element = await switcher('/en/latest/guides/observability.html');
    await element.show();
    expect(item(element, '1.0').querySelector('[part~="missing"]')!.textContent).to.equal('page not in this version');
    expect(item(element, '1.0').textContent).to.contain('page not in this version');
    expect(item(element, 'Spanish').querySelector('[part~="missing"]')!.textContent).to.equal('page not in this language');
    expect(item(element, 'latest').querySelector('[part~="missing"]')).to.equal(null);
    await expect(element).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
  });

  it('says so on the start page it led to because the page was missing, once', async () => {
    const here = window.location.href;
    history.replaceState(null, '', '#doclens-page-missing');
    const element = await switcher('/en/1.0/');
    expect(window.location.href).to.equal(here.replace(/#.*$/, ''));
    const notice = part(element, 'notice')!;
    expect(notice.getAttribute('role')).to.equal('status');
    expect(notice.textContent).to.contain('does not exist in 1.0: this is its start page');
    notice.querySelector<HTMLButtonElement>('[part~="dismiss"]')!.click();
    await element.updateComplete;
    // The old-version notice of 1.0 follows; the marker was used up.
    expect(part(element, 'notice')!.textContent).to.contain('old version');
    const again = await switcher('/en/1.0/');
    expect(part(again, 'notice')!.textContent).to.contain('old version');
  });

  it('folds into a badge and opens again when the reader says, remembered for the site across pages', async () => {
    const first = await switcher('/en/latest/installation.html', { placement: 'floating' });
    part(first, 'collapse')!.click();
    await until(() => !!part(first, 'badge'), 'folded');
    expect(part(first, 'toggle')).to.equal(null);
    expect(first.shadowRoot!.activeElement).to.equal(part(first, 'badge'));
    expect(part(first, 'badge')!.getAttribute('aria-label')).to.equal('latest, English: show the version switcher');
    await expect(first).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
    first.remove();

    const otherPage = await switcher('/en/2.0/quickstart.html', { placement: 'floating' });
    await until(() => !!part(otherPage, 'badge'), 'still folded on another page');
    part(otherPage, 'badge')!.click();
    await until(() => !!part(otherPage, 'toggle'), 'open again');
    expect(otherPage.shadowRoot!.activeElement).to.equal(part(otherPage, 'toggle'));
    otherPage.remove();

    const later = await switcher('/en/latest/installation.html', { placement: 'floating' });
    expect(part(later, 'toggle')).to.not.equal(null);
    expect(part(later, 'badge')).to.equal(null);
    // Placed by the author in a sidebar, it does not fold.
    expect(part(await switcher('/en/latest/installation.html'), 'collapse')).to.equal(null);
  });

  it("on a phone, leaves the page's own controls free: the notice and the switcher go where nothing is under them", async () => {
    await setViewport({ width: 390, height: 844 });
    const container = await fixture<HTMLDivElement>(html`<div>
      <header
        style="position: fixed; inset: 0 0 auto 0; height: 48px; display: flex; justify-content: space-between; align-items: center;
          background: #eee"
      >
        <button id="menu" aria-label="Menu">☰</button><a id="home" href="#home">Project docs</a><button id="theme"
          aria-label="Theme">◐</button>
      </header>
      <button id="to-top" style="position: fixed; right: 12px; bottom: 12px; width: 40px; height: 40px">↑</button>
      <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/1.0/installation.html`}
        placement="floating"></doclens-versions>
    </div>`);
    const element = container.querySelector('doclens-versions')!;
    await until(() => !!part(element, 'notice') && !!part(element, 'switcher')!.dataset.spot, 'arranged');
    const ours = [part(element, 'notice')!, part(element, 'toggle')!, part(element, 'collapse')!].map((node) =>
      node.getBoundingClientRect(),
    );
    for (const control of container.querySelectorAll<HTMLElement>('#menu, #home, #theme, #to-top')) {
      const box = control.getBoundingClientRect();
      expect(
        ours.some((rect) => overlap(rect, box)),
        `${control.id} left free`,
      ).to.equal(false);
      expect(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)).to.equal(control);
    }
    expect(overlap(ours[0]!, ours[1]!), 'the notice leaves the switcher free').to.equal(false);
    expect(ours.every((rect) => rect.left >= 0 && rect.right <= 390 && rect.top >= 0 && rect.bottom <= 844)).to.equal(true);
  });

  it('folds the notice into a badge where no edge is free, and shows it when the reader asks', async () => {
    await setViewport({ width: 390, height: 844 });
    const container = await fixture<HTMLDivElement>(html`<div>
      <a href="#top" style="position: fixed; inset: 0 0 auto 0; height: 90px; background: #eee">Site header</a>
      <a href="#tools" style="position: fixed; inset: auto 0 50px 0; height: 90px; background: #ddd">Page tools</a>
      <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/1.0/installation.html`}
        placement="floating"></doclens-versions>
    </div>`);
    const element = container.querySelector('doclens-versions')!;
    await until(() => !!part(element, 'notice-badge'), 'folded notice');
    expect(part(element, 'notice')).to.equal(null);
    expect(part(element, 'notice-badge')!.getAttribute('aria-label')).to.contain('old version (1.0)');
    await expect(element).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
    part(element, 'notice-badge')!.click();
    await until(() => !!part(element, 'notice'), 'notice shown');
    expect(element.shadowRoot!.activeElement).to.equal(part(element, 'notice')!.querySelector('a'));
    part(element, 'notice')!.querySelector<HTMLButtonElement>('[part~="dismiss"]')!.click();
    await element.updateComplete;
    expect(part(element, 'notice')).to.equal(null);
    expect(part(element, 'notice-badge')).to.equal(null);
  });

  it('shows no switcher where there is nothing to choose (one version, one language), unless the author asks for it', async () => {
    // Skyline: one version (latest), no translation.
    const container = await fixture<HTMLDivElement>(html`<div>
      <doclens-versions proxy=${servers.proxy} project="skyline" version="latest"
        page-url=${`${servers.docs}/en/latest/`}></doclens-versions>
      <doclens-versions always proxy=${servers.proxy} project="skyline" version="latest"
        page-url=${`${servers.docs}/en/latest/`}></doclens-versions>
    </div>`);
    const [alone, asked] = [...container.querySelectorAll('doclens-versions')];
    await until(() => !!part(asked!, 'switcher'), 'page context');
    await until(() => !!alone!.shadowRoot!.querySelector('.viewport'), 'page context of the other');
    await alone!.updateComplete;
    expect(part(alone!, 'switcher')).to.equal(null);
    expect(part(alone!, 'toggle')).to.equal(null);
    expect(part(asked!, 'toggle')!.textContent).to.contain('latest');
    // Aurora has versions to choose: the switcher is there (see the tests above).
  });
});
