import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { DoclensVersions } from './doclens-versions.ts';
import './doclens-versions.ts';
import { servers, until } from '../test-support.ts';

async function switcher(path: string, extra: Partial<{ lang: string }> = {}): Promise<DoclensVersions> {
  const container = await fixture<HTMLDivElement>(html`<div lang=${extra.lang ?? 'en'}>
    <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}${path}`} placement="inline"></doclens-versions>
  </div>`);
  const element = container.querySelector('doclens-versions')!;
  await until(() => !!element.shadowRoot!.querySelector('.toggle'), 'page context');
  return element;
}

const items = (element: DoclensVersions) => [...element.shadowRoot!.querySelectorAll<HTMLAnchorElement>('[role="menu"] a')];
const labels = (element: DoclensVersions, group: string) =>
  [...element.shadowRoot!.querySelectorAll(`[aria-labelledby="${group}-label"] a > span:first-child`)].map((span) => span.textContent);
const item = (element: DoclensVersions, label: string) => items(element).find((link) => link.querySelector('span')!.textContent === label)!;

describe('<doclens-versions>', () => {
  afterEach(() => localStorage.clear());

  it('lists active, non-hidden versions (latest and stable first, then newest) and the translations', async () => {
    const element = await switcher('/en/latest/installation.html');
    expect(element.shadowRoot!.querySelector('.toggle')!.textContent).to.contain('latest');
    expect(labels(element, 'versions')).to.deep.equal(['latest', 'stable', '2.0', '1.0']);
    expect(labels(element, 'languages')).to.deep.equal(['English', 'Spanish']);
    expect(item(element, 'latest').getAttribute('aria-checked')).to.equal('true');
    expect(item(element, 'stable').querySelector('.kind')!.textContent).to.equal('→ 2.0');
    expect(item(element, '1.0').querySelector('.kind')!.textContent).to.equal('tag');
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
    const toggle = element.shadowRoot!.querySelector<HTMLButtonElement>('.toggle')!;
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

  it('tells readers of an old version where the stable one is, until dismissed', async () => {
    const element = await switcher('/en/1.0/installation.html');
    const notice = () => element.shadowRoot!.querySelector('.notice');
    expect(notice()!.textContent).to.contain('old version (1.0)');
    expect(notice()!.querySelector('a')!.href).to.equal(`${servers.docs}/en/stable/installation.html`);
    notice()!.querySelector<HTMLButtonElement>('.dismiss')!.click();
    await element.updateComplete;
    expect(notice()).to.equal(null);
    const again = await switcher('/en/1.0/installation.html');
    expect(again.shadowRoot!.querySelector('.notice')).to.equal(null);
    const current = await switcher('/en/2.0/installation.html');
    expect(current.shadowRoot!.querySelector('.notice')).to.equal(null);
  });

  it('offers the version\'s downloads, with web links only, and marks branches', async () => {
    const container = await fixture<HTMLDivElement>(html`<div><doclens-versions proxy=${servers.hostile} placement="inline"></doclens-versions></div>`);
    const element = container.querySelector('doclens-versions')!;
    await until(() => !!element.shadowRoot!.querySelector('.toggle'), 'page context');
    await element.show();
    const downloads = [...element.shadowRoot!.querySelectorAll<HTMLAnchorElement>('[aria-labelledby="downloads-label"] a')];
    expect(downloads.map((link) => link.textContent)).to.deep.equal(['PDF', 'EPUB']);
    expect(downloads.every((link) => link.getAttribute('role') === 'menuitem' && link.href.startsWith('https://docs.example.org/'))).to.equal(true);
    expect(item(element, 'feature-x').querySelector('.kind')!.textContent).to.equal('branch');
    expect(labels(element, 'languages')).to.deep.equal([]);
  });

  it('speaks the page language', async () => {
    const element = await switcher('/es/latest/installation.html', { lang: 'es' });
    await element.show();
    expect(element.shadowRoot!.querySelector('#versions-label')!.textContent).to.equal('Versiones');
    expect(labels(element, 'languages')).to.deep.equal(['English', 'Spanish']);
  });
});
