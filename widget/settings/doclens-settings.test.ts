import { expect, fixture, html } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse, setViewport } from '@web/test-runner-commands';
import type { DoclensPreview } from '../preview/doclens-preview.ts';
import '../preview/doclens-preview.ts';
import type { DoclensSearch } from '../search/doclens-search.ts';
import '../search/doclens-search.ts';
import { fakeTimeouts, servers, until } from '../test-support.ts';
import type { DoclensVersions } from '../versions/doclens-versions.ts';
import '../versions/doclens-versions.ts';
import type { DoclensSettings } from './doclens-settings.ts';
import './doclens-settings.ts';
import { SETTINGS_KEY } from './store.ts';

const part = (root: Element, name: string) => root.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
/** The settings element inside a search dialog or a switcher. */
const settingsIn = (host: Element) => host.shadowRoot!.querySelector('doclens-settings')!;
const switches = (settings: DoclensSettings) => [...settings.shadowRoot!.querySelectorAll<HTMLElement>('[role="menuitemcheckbox"]')];
const switchNamed = (settings: DoclensSettings, label: string) => switches(settings).find((item) => item.textContent!.includes(label));
const menuOpen = (settings: DoclensSettings) => part(settings, 'settings-menu')!.matches(':popover-open');
const focusedSwitch = (settings: DoclensSettings) => settings.shadowRoot!.activeElement?.textContent?.trim();

async function hover(element: Element) {
  const box = element.getBoundingClientRect();
  await sendMouse({ type: 'move', position: [Math.round(box.left + Math.min(8, box.width / 2)), Math.round(box.top + box.height / 2)] });
}

/** Hovers `link` and moves a fake clock well past any show delay: a preview that would open has opened by then. */
async function hoverPastShowDelay(link: Element, preview: DoclensPreview) {
  const clock = fakeTimeouts();
  try {
    await hover(link);
    await clock.tickAsync(1000);
    await preview.updateComplete;
  } finally {
    clock.restore();
  }
}

async function switcher(path: string, placement: 'floating' | 'inline' = 'floating', notice = 'old'): Promise<DoclensVersions> {
  const container = await fixture<HTMLDivElement>(html`<div>
    <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}${path}`} placement=${placement}
      notice=${notice}></doclens-versions>
  </div>`);
  const element = container.querySelector('doclens-versions')!;
  await until(() => !!part(element, 'switcher'), 'page context');
  await element.updateComplete;
  return element;
}

/** Opens a settings menu with its button, as a reader clicks it. */
async function openMenu(settings: DoclensSettings): Promise<void> {
  part(settings, 'settings')!.click();
  await until(() => menuOpen(settings) && switches(settings).length > 0, 'the settings menu');
}

describe('<doclens-settings>', () => {
  afterEach(async () => {
    localStorage.clear();
    await resetMouse();
    await setViewport({ width: 800, height: 600 });
  });

  it('turns previews off for every preview on the page at once, hover and first tap alike, and keeps them off after a reload', async () => {
    const link = `${servers.docs}/en/latest/glossary.html#term-job`;
    const container = await fixture<HTMLDivElement>(html`<div>
      <div role="main" style="padding: 40px"><p>A <a id="term" href=${link}>job</a> runs.</p></div>
      <doclens-settings></doclens-settings>
      <doclens-preview proxy=${servers.proxy} domains=${new URL(servers.docs).host} show-delay="50" hide-delay="50"></doclens-preview>
    </div>`);
    const term = container.querySelector<HTMLAnchorElement>('#term')!;
    const preview = container.querySelector<DoclensPreview>('doclens-preview')!;
    const settings = container.querySelector<DoclensSettings>('doclens-settings')!;
    const previewOpen = () => part(preview, 'popup')!.matches(':popover-open');
    await hover(term);
    await until(previewOpen, 'a preview on hover');

    await openMenu(settings);
    const item = switchNamed(settings, 'Show link previews')!;
    expect(item.getAttribute('aria-checked')).to.equal('true');
    item.click();
    await settings.updateComplete;
    expect(item.getAttribute('aria-checked')).to.equal('false');
    expect(previewOpen(), 'the open preview closes at once').to.equal(false);
    await sendMouse({ type: 'move', position: [2, 2] });
    await hoverPastShowDelay(term, preview);
    expect(previewOpen(), 'no preview on hover').to.equal(false);

    // A tap follows the link at once, as without doclens.
    const followed: boolean[] = [];
    term.addEventListener('click', (event) => {
      followed.push(!event.defaultPrevented);
      event.preventDefault();
    });
    term.dispatchEvent(new PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true, composed: true }));
    term.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }));
    expect(followed).to.deep.equal([true]);
    expect(previewOpen()).to.equal(false);

    // The next page of the site: a new element, reading what was stored.
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY)!)).to.include({ previews: false });
    preview.remove();
    const again = await fixture<DoclensPreview>(
      html`<doclens-preview proxy=${servers.proxy} domains=${new URL(servers.docs).host} show-delay="50"></doclens-preview>`,
    );
    await sendMouse({ type: 'move', position: [2, 2] });
    await hoverPastShowDelay(term, again);
    expect(part(again, 'popup')!.matches(':popover-open')).to.equal(false);
    expect(again.previewUrl(term)).to.equal(undefined);
  });

  it('from the search dialog, keeps the floating switcher folded into its badge, and opens it again', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <doclens-search proxy=${servers.proxy} project="aurora"></doclens-search>
      <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/1.0/installation.html`}
        placement="floating"></doclens-versions>
    </div>`);
    const search = container.querySelector<DoclensSearch>('doclens-search')!;
    const versions = container.querySelector<DoclensVersions>('doclens-versions')!;
    await until(() => !!part(versions, 'toggle'), 'the switcher');
    await search.show();
    const settings = settingsIn(search);
    await openMenu(settings);
    const keep = switchNamed(settings, 'Keep the version switcher collapsed')!;
    expect(keep.getAttribute('aria-checked')).to.equal('false');
    keep.click();
    await until(() => !!part(versions, 'badge'), 'the badge');
    expect(part(versions, 'toggle')).to.equal(null);
    expect(search.open, 'the dialog stays open').to.equal(true);
    expect(switchNamed(settings, 'Keep the version switcher collapsed')!.getAttribute('aria-checked')).to.equal('true');
    // Folded under the dialog, the switcher is placed again once the page is seen: the notice keeps its edge.
    await search.hide();
    await until(() => !!part(versions, 'notice') && !part(versions, 'notice-badge'), 'the notice on its edge');
    // The reader opening the badge changes the setting back.
    part(versions, 'badge')!.click();
    await until(() => !!part(versions, 'toggle'), 'the switcher again');
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY)!)).to.include({ switcherCollapsed: false });
  });

  it('offers no switch for a switcher that shows nothing to choose (a site of one version)', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <doclens-search proxy=${servers.proxy} project="skyline"></doclens-search>
      <doclens-versions proxy=${servers.proxy} project="skyline" version="latest" page-url=${`${servers.docs}/en/latest/`}
        placement="floating"></doclens-versions>
    </div>`);
    const search = container.querySelector<DoclensSearch>('doclens-search')!;
    const versions = container.querySelector<DoclensVersions>('doclens-versions')!;
    await until(() => versions.offersChoice === false, 'the switcher, with nothing to choose');
    await search.show();
    const settings = settingsIn(search);
    await openMenu(settings);
    expect(switches(settings).map((item) => item.textContent!.trim())).to.deep.equal(['Show link previews']);
  });

  it('from the switcher, shows the old-version notice again or dismisses it for that version only', async () => {
    const old = await switcher('/en/1.0/installation.html');
    await until(() => !!part(old, 'notice'), 'the notice of 1.0');
    const settings = settingsIn(old);
    // Opened over the switcher's own menu, it takes its place.
    await old.show();
    const button = part(settings, 'settings')!.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(button.left + button.width / 2), Math.round(button.top + button.height / 2)] });
    await until(() => menuOpen(settings) && switches(settings).length > 0 && !old.open, "the settings menu instead of the switcher's");
    expect(switches(settings).map((item) => item.textContent!.trim())).to.deep.equal([
      'Show link previews',
      'Keep the version switcher collapsed',
      'Show the old-version notice for 1.0',
    ]);
    const notice = switchNamed(settings, 'old-version notice for 1.0')!;
    expect(notice.getAttribute('aria-checked')).to.equal('true');
    notice.click();
    await until(() => !part(old, 'notice'), 'the notice gone');
    expect(notice.getAttribute('aria-checked')).to.equal('false');
    notice.click();
    await until(() => !!part(old, 'notice'), 'the notice back');
    // Dismissed with its own button, it is unchecked in the menu.
    part(old, 'notice')!.querySelector<HTMLButtonElement>('[part~="dismiss"]')!.click();
    await settings.updateComplete;
    expect(notice.getAttribute('aria-checked')).to.equal('false');
    old.remove();

    // After a reload: still dismissed on 1.0; another version has its own notice.
    const reloaded = await switcher('/en/1.0/quickstart.html');
    expect(part(reloaded, 'notice')).to.equal(null);
    const dev = await switcher('/en/latest/installation.html', 'floating', 'all');
    await until(() => !!part(dev, 'notice'), 'the notice of latest');
    await openMenu(settingsIn(dev));
    expect(switchNamed(settingsIn(dev), 'development-version notice for latest')!.getAttribute('aria-checked')).to.equal('true');
    // Inline in a sidebar the switcher does not fold: no such switch; a version without notice, none either.
    const inline = await switcher('/en/2.0/installation.html', 'inline');
    await openMenu(settingsIn(inline));
    expect(switches(settingsIn(inline)).map((item) => item.textContent!.trim())).to.deep.equal(['Show link previews']);
  });

  it('takes over the fold and notice choices remembered by earlier releases', async () => {
    localStorage.setItem('doclens:notice:aurora:1.0', 'dismissed');
    localStorage.setItem(`doclens:switcher:${window.location.origin}:aurora`, 'collapsed');
    const element = await switcher('/en/1.0/installation.html');
    await until(() => !!part(element, 'badge'), 'folded as before');
    expect(part(element, 'notice')).to.equal(null);
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY)!)).to.deep.equal({
      previews: true,
      switcherCollapsed: true,
      dismissedNotices: ['aurora/1.0'],
    });
    expect(localStorage.getItem('doclens:notice:aurora:1.0')).to.equal(null);
  });

  it('follows a change made in another tab', async () => {
    const element = await switcher('/en/latest/installation.html');
    const stored = JSON.stringify({ previews: true, switcherCollapsed: true, dismissedNotices: [] });
    localStorage.setItem(SETTINGS_KEY, stored);
    window.dispatchEvent(new StorageEvent('storage', { key: SETTINGS_KEY, newValue: stored }));
    await until(() => !!part(element, 'badge'), 'folded by the other tab');
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    await until(() => !!part(element, 'toggle'), "open again once the site's storage is cleared");
  });

  it('works by keyboard as a menu button, and keeps its keys from the page', async () => {
    // On its own, beside the page's switcher: the switches are that switcher's.
    const container = await fixture<HTMLDivElement>(html`<div>
      <doclens-settings></doclens-settings>
      <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/1.0/installation.html`}
        placement="floating"></doclens-versions>
    </div>`);
    const versions = container.querySelector<DoclensVersions>('doclens-versions')!;
    await until(() => !!part(versions, 'notice'), 'the switcher and its notice');
    const settings = container.querySelector<DoclensSettings>('doclens-settings')!;
    const button = part(settings, 'settings')!;
    expect(button.getAttribute('aria-haspopup')).to.equal('menu');
    const seenByPage: string[] = [];
    const pageShortcuts = (event: KeyboardEvent) => seenByPage.push(`${event.type} ${event.key}`);
    document.addEventListener('keydown', pageShortcuts);
    document.addEventListener('keyup', pageShortcuts);
    try {
      button.focus();
      await sendKeys({ press: 'ArrowDown' });
      await until(() => menuOpen(settings), 'open');
      expect(button.getAttribute('aria-expanded')).to.equal('true');
      expect(focusedSwitch(settings)).to.equal('Show link previews');
      await sendKeys({ press: 'ArrowDown' });
      expect(focusedSwitch(settings)).to.equal('Keep the version switcher collapsed');
      await sendKeys({ press: 'End' });
      expect(focusedSwitch(settings)).to.equal('Show the old-version notice for 1.0');
      await sendKeys({ press: 'ArrowDown' });
      expect(focusedSwitch(settings)).to.equal('Show link previews');
      await sendKeys({ press: 'ArrowUp' });
      await sendKeys({ press: 'Home' });
      expect(focusedSwitch(settings)).to.equal('Show link previews');
      // Space checks and stays; Enter checks and closes.
      await sendKeys({ press: ' ' });
      await settings.updateComplete;
      expect(switches(settings)[0]!.getAttribute('aria-checked')).to.equal('false');
      expect(menuOpen(settings)).to.equal(true);
      await sendKeys({ press: 'Enter' });
      await settings.updateComplete;
      expect(menuOpen(settings)).to.equal(false);
      expect(settings.shadowRoot!.activeElement).to.equal(button);
      await sendKeys({ press: 'ArrowUp' });
      await until(() => menuOpen(settings), 'open on the last');
      expect(focusedSwitch(settings)).to.equal('Show the old-version notice for 1.0');
      expect(switches(settings)[0]!.getAttribute('aria-checked')).to.equal('true');
      await expect(settings).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
      await sendKeys({ press: 'Escape' });
      expect(menuOpen(settings)).to.equal(false);
      expect(settings.shadowRoot!.activeElement).to.equal(button);
      expect(seenByPage).to.deep.equal([]);
    } finally {
      document.removeEventListener('keydown', pageShortcuts);
      document.removeEventListener('keyup', pageShortcuts);
    }
  });

  it('in the search dialog, Escape closes only the menu, Tab goes on to the close button, a click outside closes it', async () => {
    const search = await fixture<DoclensSearch>(html`<doclens-search proxy=${servers.proxy} project="aurora"></doclens-search>`);
    await search.show();
    const settings = settingsIn(search);
    await sendKeys({ press: 'Tab' });
    expect(settings.shadowRoot!.activeElement).to.equal(part(settings, 'settings'));
    await sendKeys({ press: 'Enter' });
    await until(() => menuOpen(settings), 'open');
    expect(focusedSwitch(settings)).to.equal('Show link previews');
    await sendKeys({ press: 'Escape' });
    expect(menuOpen(settings)).to.equal(false);
    expect(search.open, 'the dialog stays open').to.equal(true);
    expect(settings.shadowRoot!.activeElement).to.equal(part(settings, 'settings'));

    await sendKeys({ press: 'ArrowDown' });
    await until(() => menuOpen(settings), 'open again');
    await sendKeys({ press: 'Tab' });
    expect(menuOpen(settings)).to.equal(false);
    expect(search.shadowRoot!.activeElement!.textContent!.trim()).to.equal('EscClose');

    await openMenu(settings);
    const field = search.querySelector('input')!.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(field.left + 20), Math.round(field.top + field.height / 2)] });
    await until(() => !menuOpen(settings), 'closed by a click outside');
    expect(search.open).to.equal(true);
    await sendKeys({ press: 'Escape' });
    await until(() => !search.open, 'the dialog closes on the next Escape');
  });

  it('speaks Spanish on a Spanish page, and fits a phone screen in light and dark', async () => {
    await setViewport({ width: 390, height: 844 });
    const container = await fixture<HTMLDivElement>(html`<div lang="es">
      <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/1.0/installation.html`}
        placement="floating" scheme="dark"></doclens-versions>
    </div>`);
    const element = container.querySelector('doclens-versions')!;
    await until(() => !!part(element, 'toggle'), 'the switcher');
    const settings = settingsIn(element);
    expect(settings.getAttribute('scheme'), "the switcher's fixed scheme").to.equal('dark');
    expect(part(settings, 'settings')!.getAttribute('aria-label')).to.equal('Preferencias de lectura en este sitio');
    await openMenu(settings);
    expect(switches(settings).map((item) => item.textContent!.trim())).to.deep.equal([
      'Mostrar vistas previas de los enlaces',
      'Mantener plegado el selector de versiones',
      'Mostrar el aviso de versión antigua en 1.0',
    ]);
    const menu = part(settings, 'settings-menu')!.getBoundingClientRect();
    expect(menu.left >= 0 && menu.right <= 390 && menu.top >= 0 && menu.bottom <= 844, 'inside the screen').to.equal(true);
    expect(getComputedStyle(part(settings, 'settings-menu')!).backgroundColor).to.equal('rgb(21, 27, 35)');
  });
});
