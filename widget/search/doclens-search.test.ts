import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendKeys, sendMouse } from '@web/test-runner-commands';
import type { SearchResponse } from '../../contract/index.ts';
import type { DoclensSearch } from './doclens-search.ts';
import './doclens-search.ts';
import { afterEarlierImageErrors, fakeTimeouts, servers, until, watchFetches } from '../test-support.ts';
import { installThemeShortcuts } from './theme-shortcuts.fixture.ts';

const shadow = (element: DoclensSearch) => element.shadowRoot!;
/** The search field: a combobox in the element's light DOM, shown in its dialog. */
const input = (element: DoclensSearch) => element.querySelector<HTMLInputElement>('input[role="combobox"]')!;
const options = (element: DoclensSearch) => [...shadow(element).querySelectorAll<HTMLAnchorElement>('[role="option"]')];
const stateText = (element: DoclensSearch) => shadow(element).querySelector('[part~="state"]')?.textContent?.trim() ?? '';

/** Every search request the page makes, by its `q`. */
function recordSearches(): { queries: string[]; restore(): void } {
  const original = window.fetch;
  const queries: string[] = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/search/')) queries.push(url.searchParams.get('q') ?? '');
    return original(input, init);
  };
  return {
    queries,
    restore: () => {
      window.fetch = original;
    },
  };
}

async function openWith(element: DoclensSearch, text: string) {
  await element.show();
  await sendKeys({ type: text });
}

/** Clicks the middle of an element with the real mouse. */
async function click(target: Element): Promise<void> {
  target.scrollIntoView({ block: 'nearest' });
  const box = target.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)] });
}

describe('<doclens-search>', () => {
  afterEach(() => localStorage.clear());

  it('opens on "/" and Ctrl+K, not while typing in another field, and closes on Escape restoring focus', async () => {
    const container = await fixture<HTMLDivElement>(
      html`<div><input id="other" /><button id="before">before</button><doclens-search proxy=${servers.proxy}></doclens-search></div>`,
    );
    const element = container.querySelector('doclens-search')!;
    const before = container.querySelector<HTMLButtonElement>('#before')!;
    before.focus();
    await sendKeys({ press: '/' });
    await until(() => element.open, 'open by /');
    expect(document.activeElement).to.equal(input(element));
    const closed = oneEvent(element, 'doclens-search-close');
    await sendKeys({ press: 'Escape' });
    await closed;
    expect(element.open).to.equal(false);
    expect(document.activeElement).to.equal(before);
    await sendKeys({ press: 'Control+k' });
    await until(() => element.open, 'open by Ctrl+K');
    await element.hide();
    container.querySelector<HTMLInputElement>('#other')!.focus();
    await sendKeys({ press: '/' });
    expect(element.open).to.equal(false);
    expect(container.querySelector<HTMLInputElement>('#other')!.value).to.equal('/');
  });

  it('names the project searched, not its slug', async () => {
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" version="2.0" page-url=${`${servers.docs}/en/2.0/`}></doclens-search>`,
    );
    await element.show();
    await until(
      () => element.shadowRoot!.querySelector('[part~="filters"] > span')?.textContent === 'Searching Aurora 2.0',
      'the project name',
    );
  });

  it('searches as you type against the proxy, grouped by page with section hits, as a combobox', async () => {
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>`,
    );
    await openWith(element, 'schedul');
    await until(() => options(element).length > 0, 'results');
    const first = options(element)[0]!;
    // The reader's words, then the forms the search matched in the row ("scheduler" for "schedul").
    expect(first.getAttribute('href')).to.match(/^http:\/\/127\.0\.0\.1:\d+\/en\/latest\/.+\.html\?highlight=schedul(\+[\w-]+)*$/);
    expect(options(element).some((option) => /\.html\?highlight=schedul(\+[\w-]+)*#/.test(option.href))).to.equal(true);
    expect(first.querySelector('[part~="option-title"] span')?.textContent?.toLowerCase()).to.contain('schedul');
    const field = input(element);
    expect(field.getAttribute('role')).to.equal('combobox');
    expect(field.getAttribute('aria-expanded')).to.equal('true');
    expect(first.getAttribute('aria-selected')).to.equal('true');
    // The field is in the light DOM: it names the host, whose shadow root forwards to the active option.
    expect(field.getAttribute('aria-activedescendant')).to.equal(element.id);
    expect((shadow(element) as ShadowRoot & { referenceTarget: string | null }).referenceTarget).to.equal(first.id);
    expect(shadow(element).querySelector('[role="status"]')!.textContent).to.match(/\d+ results?/);
    await expect(element).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
  });

  it('breaks long API names at their dots and underscores, not mid-word, on a phone', async () => {
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>`,
    );
    await openWith(element, 'add_job');
    await until(() => options(element).some((option) => option.textContent!.includes('add_job')), 'the API entry');
    const titles = options(element).map((option) => option.querySelector('[part~="option-title"]')!);
    const title = titles.find((part) => part.textContent!.includes('add_job'))!;
    // A break opportunity at its underscore (and its dots), the text unchanged; none in plain words.
    const breaks = [...title.querySelectorAll('wbr')].map((wbr) => wbr.previousSibling!.textContent);
    expect(breaks.some((before) => /add_$/.test(before!))).to.equal(true);
    expect(title.textContent).to.contain('add_job');
    for (const part of titles) if (!/[._]/.test(part.textContent!)) expect(part.querySelector('wbr')).to.equal(null);
  });

  it('chooses first the entry a typed name finds on a page its title does not name, so Enter opens the entry', async () => {
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>`,
    );
    await openWith(element, 'add_job');
    await until(() => options(element).some((option) => option.textContent!.includes('add_job')), 'the API entry');
    const chosen = options(element).find((option) => option.getAttribute('aria-selected') === 'true')!;
    expect(chosen.querySelector('[part~="option-title"]')!.textContent).to.contain('add_job');
    expect(new URL(chosen.href).hash).to.equal('#aurora.Scheduler.add_job');
    expect(options(element)[0]!.getAttribute('aria-selected')).to.equal('false');
  });

  it('as a floating button, steps out of the way while the reader scrolls down through the text, back on the way up', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <div role="main" style="height: 4000px"><p>Text</p></div>
      <doclens-search floating proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>
    </div>`);
    const element = container.querySelector('doclens-search')!;
    const trigger = shadow(element).querySelector<HTMLButtonElement>('[part~="trigger"]')!;
    const seen = () => trigger.getBoundingClientRect().bottom > 0 && getComputedStyle(trigger).visibility === 'visible';
    const scrollTo = async (top: number) => {
      window.scrollTo(0, top);
      await until(() => window.scrollY === top, `scrolled to ${top}`);
      await new Promise((resolve) => setTimeout(resolve, 350));
    };
    try {
      await scrollTo(0);
      expect(seen()).to.equal(true);
      await scrollTo(600);
      expect(element.hasAttribute('data-scrolled-away')).to.equal(true);
      expect(seen()).to.equal(false);
      // A hidden button takes no focus; the hotkey still opens the search, and the dialog shows.
      await sendKeys({ press: '/' });
      await until(() => element.open, 'open');
      expect(getComputedStyle(shadow(element).querySelector('dialog')!).visibility).to.equal('visible');
      await element.hide();
      await scrollTo(500);
      expect(element.hasAttribute('data-scrolled-away')).to.equal(false);
      expect(seen()).to.equal(true);
      // Focused, it stays.
      trigger.focus();
      await scrollTo(1200);
      expect(seen()).to.equal(true);
    } finally {
      window.scrollTo(0, 0);
    }
  });

  it('as a floating button, starts out of the way on a page opened at a target below its top', async () => {
    const address = window.location.href;
    try {
      const text = await fixture<HTMLDivElement>(html`<div role="main" style="height: 4000px"><p id="target">Text</p></div>`);
      window.scrollTo(0, 900);
      window.history.replaceState(null, '', '#target');
      const element = await fixture<DoclensSearch>(
        html`<doclens-search floating proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>`,
      );
      await until(() => element.hasAttribute('data-scrolled-away'), 'out of the way');
      window.scrollTo(0, 700);
      await until(() => !element.hasAttribute('data-scrolled-away'), 'back on the way up');
      // One taken out of the page before its first frame comes back in it as it left: in sight.
      window.scrollTo(0, 900);
      const moved = document.createElement('doclens-search');
      moved.setAttribute('floating', '');
      text.append(moved);
      moved.remove();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      expect(moved.hasAttribute('data-scrolled-away')).to.equal(false);
      text.remove();
    } finally {
      window.history.replaceState(null, '', address);
      window.scrollTo(0, 0);
    }
  });

  it('debounces typing into one request and never lets a slow answer overwrite a later one', async () => {
    const watched = watchFetches();
    const searched = (words: string) => watched.requests.filter(({ url }) => url.searchParams.get('q') === words);
    try {
      const element = await fixture<DoclensSearch>(html`<doclens-search proxy=${servers.hostile} debounce="100"></doclens-search>`);
      await element.show();
      // However slowly the keys arrive, no 100 ms pass between them: the clock moves only after the last.
      const clock = fakeTimeouts();
      try {
        await sendKeys({ type: 'quick' });
        await clock.tickAsync(100);
      } finally {
        clock.restore();
      }
      await until(() => options(element).length > 0, 'results');
      expect(watched.requests.map(({ url }) => url.searchParams.get('q'))).to.deep.equal(['quick']);
      await element.show('slow');
      await until(() => searched('slow').length > 0, 'the slow request');
      expect(input(element).getAttribute('aria-busy')).to.equal('true');
      expect(shadow(element).querySelector('[part~="spinner"]')).to.not.equal(null);
      await element.show('fast');
      await until(() => options(element)[0]?.textContent?.includes('fast') ?? false, 'fast results');
      // The slow request was given up: its answer can never be shown.
      expect(await searched('slow')[0]!.outcome).to.equal('aborted');
      expect(options(element)[0]!.textContent).to.contain('fast');
      expect(options(element).some((option) => option.textContent?.includes('slow'))).to.equal(false);
    } finally {
      watched.restore();
    }
  });

  it('moves through results with the arrows (wrapping) and opens with Enter', async () => {
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>`,
    );
    await openWith(element, 'retry');
    await until(() => options(element).length > 2, 'results');
    const count = options(element).length;
    const active = () => shadow(element).querySelector('[role="option"][aria-selected="true"]')?.id;
    // "retry" chooses the section "Retries" first, below the page "Configuration" (see `firstChosen`).
    const chosen = options(element).findIndex((option) => option.id === active());
    expect(chosen).to.equal(1);
    await sendKeys({ press: 'ArrowDown' });
    expect(active()).to.equal(options(element)[2]!.id);
    const pageScroll = window.scrollY;
    for (let press = 0; press < 3; press++) await sendKeys({ press: 'ArrowUp' });
    expect(active()).to.equal(options(element)[count - 1]!.id);
    await element.updateComplete;
    const list = shadow(element).querySelector('[part~="body"]')!.getBoundingClientRect();
    const last = options(element)[count - 1]!.getBoundingClientRect();
    expect(last.bottom).to.be.at.most(list.bottom + 1);
    expect(window.scrollY).to.equal(pageScroll);
    expect(options(element)[count - 1]!.getAttribute('aria-selected')).to.equal('true');
    await sendKeys({ press: 'ArrowDown' });
    element.addEventListener('doclens-search-select', (event) => event.preventDefault(), { once: true });
    const selected = oneEvent(element, 'doclens-search-select');
    await sendKeys({ press: 'Enter' });
    const { detail } = await selected;
    expect(detail.url).to.equal(options(element)[0]!.href);
    expect(detail.newTab).to.equal(false);
  });

  it('runs a recent search reached with the arrows on Enter, focus staying in the field', async () => {
    localStorage.setItem('doclens:recent:aurora', JSON.stringify(['lease', 'retry']));
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest" debounce="0"></doclens-search>`,
    );
    await element.show();
    const reached = () => shadow(element).querySelector('[part~="recent"] li[data-active] [part~="recent-query"]')?.textContent;
    await sendKeys({ press: 'ArrowDown' });
    expect(reached()).to.equal('lease');
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    expect(reached()).to.equal('lease');
    await sendKeys({ press: 'ArrowUp' });
    expect(reached()).to.equal('retry');
    expect(shadow(element).querySelector('[role="status"]')!.textContent).to.equal('retry');
    await sendKeys({ press: 'Enter' });
    expect(input(element).value).to.equal('retry');
    await until(() => options(element).length > 0, 'results of the recent search');
    expect(document.activeElement).to.equal(input(element));
    expect(element.open).to.equal(true);
  });

  it('keeps the query in the URL fragment while open; Back or Escape closes and restores the URL without scrolling', async () => {
    const before = window.location.href;
    const element = await fixture<DoclensSearch>(
      html`<div style="height: 3000px"><doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search></div>`,
    ).then((container) => container.querySelector('doclens-search')!);
    window.scrollTo(0, 400);
    const pageScroll = window.scrollY;
    await openWith(element, 'retry lease');
    expect(window.location.hash).to.equal('#doclens-q=retry+lease');
    expect(window.location.href.split('#')[0]).to.equal(before.split('#')[0]);
    // Typing replaced the entry: one Back closes the dialog.
    const closed = oneEvent(element, 'doclens-search-close');
    window.history.back();
    await closed;
    expect(element.open).to.equal(false);
    await until(() => window.location.href === before, 'URL as before');
    expect(window.scrollY).to.equal(pageScroll);
    await openWith(element, 'x');
    await sendKeys({ press: 'Escape' });
    await until(() => !element.open && window.location.href === before, 'closed by Escape, URL as before');
    expect(window.scrollY).to.equal(pageScroll);
    window.scrollTo(0, 0);
  });

  it('opens from a link to a search, with its results, and Back then lands on the page', async () => {
    const before = window.location.href;
    window.history.replaceState(null, '', '#doclens-q=retry');
    try {
      const element = await fixture<DoclensSearch>(
        html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>`,
      );
      await until(() => element.open && options(element).length > 0, 'opened with results');
      expect(input(element).value).to.equal('retry');
      expect(window.location.hash).to.equal('#doclens-q=retry');
      await element.hide();
      expect(window.location.href).to.equal(before.split('#')[0]);
      // A link to a search on the page already open changes only the fragment.
      window.location.hash = 'doclens-q=lease';
      await until(() => element.open && input(element).value === 'lease', 'opened by the fragment');
      await element.hide();
      expect(window.location.href).to.equal(before.split('#')[0]);
    } finally {
      window.history.replaceState(null, '', before);
    }
  });

  it('copies a link to the search, or shows it selected when the clipboard is unavailable', async () => {
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>`,
    );
    await openWith(element, 'lease');
    const expected = `${window.location.href.split('#')[0]}#doclens-q=lease`;
    const copy = shadow(element).querySelector<HTMLButtonElement>('button[aria-label="Copy link to this search"]')!;
    await click(copy);
    await until(() => shadow(element).querySelector('[part~="shared-link"]') !== null, 'copy answered');
    const shared = shadow(element).querySelector('[part~="shared-link"]')!;
    expect(shared.getAttribute('role')).to.equal('status');
    expect(shared.textContent).to.equal('Link copied');
    // Pasted into the field, the clipboard holds the link.
    input(element).select();
    await sendKeys({ press: 'Control+v' });
    expect(input(element).value).to.equal(expected);
    await element.show('lease');
    // Outside a secure context there is no clipboard: the link is shown, selected, to copy by hand.
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    try {
      await click(copy);
      await until(() => shadow(element).querySelector('[part~="shared-link"] input') !== null, 'link shown');
      const linkField = shadow(element).querySelector<HTMLInputElement>('[part~="shared-link"] input')!;
      expect(linkField.value).to.equal(expected);
      expect(shadow(element).activeElement).to.equal(linkField);
      expect(linkField.selectionEnd! - linkField.selectionStart!).to.equal(expected.length);
      expect(shadow(element).querySelector('[part~="shared-link"]')!.textContent).to.contain('Press Ctrl+C');
    } finally {
      delete (navigator as { clipboard?: Clipboard }).clipboard;
    }
    await element.hide();
  });

  it('sends the subprojects filter and the version in the query, and changes it when toggled', async () => {
    const recorder = recordSearches();
    try {
      const element = await fixture<DoclensSearch>(
        html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest" debounce="0"
          page-url=${`${servers.docs}/en/latest/`}></doclens-search>`,
      );
      await openWith(element, 'plugin');
      await until(() => options(element).length > 0, 'results');
      await until(() => !!shadow(element).querySelector('[part~="filters"] input[type="checkbox"]'), 'the subprojects box');
      expect(recorder.queries.at(-1)).to.equal('subprojects:aurora/latest plugin');
      shadow(element).querySelector<HTMLInputElement>('[part~="filters"] input[type="checkbox"]')!.click();
      await until(() => recorder.queries.at(-1) === 'project:aurora/latest plugin', 'filtered request');
    } finally {
      recorder.restore();
    }
  });

  it("marks the words matched in a title, not the badge naming a subproject's page", async () => {
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>`,
    );
    await openWith(element, 'redis store');
    const badge = () => shadow(element).querySelector('[part~="option-title"] .badge');
    await until(() => !!badge(), "a subproject's page");
    // Not in the chosen row, whose matches are underlined instead.
    await sendKeys({ press: 'ArrowUp' });
    await until(() => badge()!.closest('[aria-selected="true"]') === null, 'another row chosen');
    const match = badge()!.parentElement!.querySelector('span:not(.badge)')!;
    expect(getComputedStyle(match).backgroundColor).to.equal('rgb(255, 242, 168)');
    expect(getComputedStyle(badge()!).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
  });

  it('keeps recent searches, with remove and clear', async () => {
    const element = await fixture<DoclensSearch>(html`<doclens-search proxy=${servers.hostile} debounce="0"></doclens-search>`);
    element.addEventListener('doclens-search-select', (event) => event.preventDefault());
    for (const word of ['alpha', 'beta']) {
      await element.show(word);
      await until(() => options(element).length > 0, 'results');
      options(element)[0]!.click();
    }
    await element.show('');
    const recent = () => [...shadow(element).querySelectorAll('[part~="recent-query"]')].map((button) => button.textContent);
    expect(recent()).to.deep.equal(['beta', 'alpha']);
    shadow(element).querySelector<HTMLButtonElement>('[part~="recent-remove"]')!.click();
    await element.updateComplete;
    expect(recent()).to.deep.equal(['alpha']);
    shadow(element).querySelector<HTMLButtonElement>('[part~="recent-clear"]')!.click();
    await element.updateComplete;
    expect(recent()).to.deep.equal([]);
    expect(localStorage.getItem('doclens:recent:all')).to.equal('[]');
  });

  it('shows "unavailable" for an answer not in the shape of the contract, and searches on', async () => {
    const hostile = await fixture<DoclensSearch>(html`<doclens-search proxy=${servers.hostile} debounce="0"></doclens-search>`);
    await hostile.show('malformed');
    await until(() => stateText(hostile).includes('unavailable'), 'error state');
    expect(options(hostile)).to.have.length(0);
    await hostile.show('nothing');
    await until(() => stateText(hostile).includes('No results'), 'empty state');
  });

  it('shows no-results, error with retry, and loads more results on demand', async () => {
    const hostile = await fixture<DoclensSearch>(html`<doclens-search proxy=${servers.hostile} debounce="0"></doclens-search>`);
    await hostile.show('nothing');
    await until(() => stateText(hostile).includes('No results'), 'empty state');
    expect(stateText(hostile)).to.contain('"nothing"');
    await hostile.show('fail');
    await until(() => stateText(hostile).includes('unavailable'), 'error state');
    shadow(hostile).querySelector<HTMLButtonElement>('[part~="error"] button')!.click();
    await until(() => stateText(hostile).includes('unavailable'), 'error state again');

    const real = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" page-size="2" debounce="0"></doclens-search>`,
    );
    await real.show('scheduler');
    await until(() => options(real).length > 0, 'results');
    const before = options(real).length;
    shadow(real).querySelector<HTMLButtonElement>('[part~="more"]')!.click();
    await until(() => options(real).length > before, 'more results');
  });

  it('says it is still indexing while the host answers partial results, and asks again until they are complete', async () => {
    const original = window.fetch;
    let asked = 0;
    // The first answer is what a host still indexing gives: nothing found so far, and saying so.
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await original(input, init);
      if (!new URL(input instanceof Request ? input.url : String(input)).pathname.endsWith('/search/')) return response;
      const answer = (await response.json()) as SearchResponse;
      const partial = ++asked === 1;
      return Response.json(
        partial
          ? ({ ...answer, count: 0, results: [], indexing: true } satisfies SearchResponse)
          : ({ ...answer, indexing: false } satisfies SearchResponse),
      );
    };
    try {
      const element = await fixture<DoclensSearch>(
        html`<doclens-search proxy=${servers.proxy} project="aurora" debounce="0"></doclens-search>`,
      );
      await element.show('scheduler');
      await until(() => stateText(element) === 'Still indexing… more results may follow.', 'still indexing');
      expect(shadow(element).querySelector('[role="status"]')!.textContent).to.contain('Still indexing');
      await until(() => options(element).length > 0, 'the complete results, asked again');
      expect(stateText(element)).to.equal('');
      expect(asked).to.equal(2);
    } finally {
      window.fetch = original;
    }
  });

  it('says so when the reader is offline', async () => {
    const online = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;
    Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });
    try {
      const element = await fixture<DoclensSearch>(html`<doclens-search proxy="http://127.0.0.1:9" debounce="0"></doclens-search>`);
      await element.show('scheduler');
      await until(() => stateText(element).includes('offline'), 'offline state');
      expect(shadow(element).querySelector('[part~="error"] button')).to.not.equal(null);
    } finally {
      Object.defineProperty(Navigator.prototype, 'onLine', online);
    }
  });

  it('renders hostile highlights and titles as text: no element but <span> survives and nothing runs', async () => {
    const element = await fixture<DoclensSearch>(html`<doclens-search proxy=${servers.hostile} debounce="0"></doclens-search>`);
    await element.show('attack');
    await until(() => options(element).length > 0, 'results');
    const results = shadow(element).querySelector('[role="listbox"]')!;
    expect(results.querySelectorAll('img, script, svg, iframe, style, base, math, form, input, [onerror], [onload]').length).to.equal(0);
    expect(
      [...results.querySelectorAll('a')].every(
        (link) => link.getAttribute('role') === 'option' && link.href.startsWith('http://127.0.0.1:9/'),
      ),
    ).to.equal(true);
    await afterEarlierImageErrors();
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined);
    expect(getComputedStyle(document.body).display).to.not.equal('none');
  });

  it("keeps every key typed in it from the page's own shortcuts, on the document or the window, bubbling or capturing", async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <form role="search" action="search.html"><input name="q" aria-label="Theme search" /></form>
      <doclens-search proxy=${servers.proxy} project="aurora" version="latest"></doclens-search>
    </div>`);
    const element = container.querySelector('doclens-search')!;
    const themeBox = container.querySelector<HTMLInputElement>('input[name="q"]')!;
    const shortcuts = installThemeShortcuts(window, themeBox);
    const address = location.href;
    try {
      await element.show();
      const typed = 'a/b n p s f ? 12 Retry, Policy.';
      await sendKeys({ type: typed });
      expect(input(element).value).to.equal(typed);
      expect(document.activeElement).to.equal(input(element));
      expect(themeBox.value).to.equal('');
      await element.show('');
      await sendKeys({ type: 'retry' });
      await until(() => options(element).length > 2, 'results');
      // From the row chosen first ("Retries", the second), down two and up one.
      for (const key of ['ArrowDown', 'ArrowLeft', 'ArrowRight', 'ArrowDown', 'ArrowUp']) await sendKeys({ press: key });
      expect(shadow(element).querySelector('[role="option"][aria-selected="true"]')).to.equal(options(element)[2]);
      element.addEventListener('doclens-search-select', (event) => event.preventDefault(), { once: true });
      const selected = oneEvent(element, 'doclens-search-select');
      await sendKeys({ press: 'Enter' });
      expect((await selected).detail.url).to.equal(options(element)[2]!.href);
      const closed = oneEvent(element, 'doclens-search-close');
      await sendKeys({ press: 'Escape' });
      await closed;
      // The search's own fragment goes away (asynchronously: it is a Back); nothing else changed the address.
      await until(() => location.href === address, 'the address as before');
      expect(shortcuts.actions).to.deep.equal([]);
    } finally {
      shortcuts.remove();
    }
  });

  it('keeps focus in the dialog whatever is clicked in it, so typing and Escape go on working', async () => {
    const container = await fixture<HTMLDivElement>(html`<div>
      <input name="q" aria-label="Theme search" />
      <doclens-search proxy=${servers.proxy} project="aurora" page-size="2" debounce="0"></doclens-search>
    </div>`);
    const element = container.querySelector('doclens-search')!;
    const shortcuts = installThemeShortcuts(window, container.querySelector<HTMLInputElement>('input[name="q"]')!);
    const closesOnEscape = async () => {
      const closed = oneEvent(element, 'doclens-search-close');
      await sendKeys({ press: 'Escape' });
      await closed;
    };
    try {
      await openWith(element, 'scheduler');
      await until(() => !!shadow(element).querySelector('[part~="more"]'), 'more results');
      const before = options(element).length;
      await click(shadow(element).querySelector('[part~="more"]')!);
      await until(() => options(element).length > before, 'the next page');
      expect(document.activeElement).to.equal(input(element));
      await sendKeys({ type: 's' });
      expect(input(element).value).to.equal('schedulers');
      element.addEventListener('doclens-search-select', (event) => event.preventDefault(), { once: true });
      await click(options(element)[0]!);
      await closesOnEscape();

      await element.show('');
      await click(shadow(element).querySelector('[part~="recent-query"]')!);
      expect(input(element).value).to.equal('schedulers');
      await element.updateComplete;
      expect(document.activeElement).to.equal(input(element));
      await closesOnEscape();

      await element.show('');
      await click(shadow(element).querySelector('footer')!);
      expect(document.activeElement).to.equal(input(element));
      await click(shadow(element).querySelector('[part~="recent-head"] span')!);
      await closesOnEscape();

      // Try again, on a proxy that fails.
      element.proxy = servers.hostile;
      await element.show('fail');
      await until(() => !!shadow(element).querySelector('[part~="error"] button'), 'the error and its retry button');
      await click(shadow(element).querySelector('[part~="error"] button')!);
      await until(() => !!shadow(element).querySelector('[part~="error"] button'), 'the error again');
      expect(document.activeElement).to.equal(input(element));
      await closesOnEscape();
      expect(shortcuts.actions).to.deep.equal([]);
    } finally {
      shortcuts.remove();
    }
  });

  it('keeps Tab and Shift+Tab going round the dialog', async () => {
    localStorage.setItem('doclens:recent:aurora', JSON.stringify(['lease', 'retry']));
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.proxy} project="aurora" page-url=${`${servers.docs}/en/latest/`}></doclens-search>`,
    );
    await element.show();
    await until(() => !!shadow(element).querySelector('[part~="filters"] input[type="checkbox"]'), 'the subprojects box');
    const visited: string[] = [];
    for (let step = 0; step < 9; step++) {
      await sendKeys({ press: 'Tab' });
      const active = element.shadowRoot!.activeElement ?? document.activeElement;
      expect(element.contains(document.activeElement), `focus after ${step + 1} Tab`).to.equal(true);
      visited.push(active === input(element) ? 'field' : active?.textContent?.trim() || active?.tagName || '');
    }
    // The field, the reader's settings, the close button, the subprojects box, clear, then each recent search and its remove button.
    expect(visited.slice(0, 8)).to.deep.equal(['DOCLENS-SETTINGS', 'EscClose', 'INPUT', 'Clear', 'lease', '✕', 'retry', '✕']);
    expect(visited[8]).to.equal('field');
    await sendKeys({ press: 'Shift+Tab' });
    expect(element.shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal('Remove "retry" from recent searches');
  });

  it('speaks Spanish on a Spanish page', async () => {
    const container = await fixture<HTMLDivElement>(html`<div lang="es"><doclens-search proxy=${servers.hostile}></doclens-search></div>`);
    const element = container.querySelector('doclens-search')!;
    expect(shadow(element).querySelector('[part~="trigger"]')!.textContent).to.contain('Buscar');
    await element.show();
    expect(input(element).placeholder).to.equal('Buscar en la documentación');
  });

  describe('result rows on a page of a real theme', () => {
    // The side menu of the demo's guides/deployment.html (Sphinx, Read the Docs theme), read from the built file.
    const PAGE = () => `${servers.docs}/en/latest/guides/deployment.html`;
    let sidebar: string | undefined;
    const sideMenu = async () =>
      (sidebar ??= new DOMParser()
        .parseFromString(await (await fetch('/demo/docs/build/aurora/en/latest/guides/deployment.html')).text(), 'text/html')
        .querySelector('[role="navigation"][aria-label="Navigation menu"]')!.outerHTML);
    const title = document.title;
    afterEach(() => {
      document.title = title;
    });

    async function themedPage(
      attributes = 'project="aurora" version="latest"',
      { title = 'Deploying workers — Aurora 2.1.0 documentation', heading = 'Deploying workers' } = {},
    ): Promise<DoclensSearch> {
      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      container.innerHTML =
        `<nav>${await sideMenu()}</nav><div role="main"><h1>${heading}</h1></div>` +
        `<doclens-search proxy="${servers.proxy}" ${attributes}></doclens-search>`;
      for (const link of container.querySelectorAll('a')) link.href = new URL(link.getAttribute('href')!, PAGE()).href;
      document.title = title;
      return container.querySelector<DoclensSearch>('doclens-search')!;
    }

    const rowPlace = (element: DoclensSearch, path: string) =>
      options(element)
        .find((option) => option.classList.contains('page') && new URL(option.href).pathname.endsWith(path))
        ?.querySelector('[part~="option-place"]')?.textContent;

    it(
      "say where each page sits with the titles of the page's own table of contents, " + "and the site's name as the page shows it",
      async () => {
        const element = await themedPage();
        await openWith(element, 'worker');
        await until(() => rowPlace(element, '/guides/deployment.html') !== undefined, 'the deployment page, placed');
        expect(rowPlace(element, '/guides/deployment.html')).to.equal('Guides');
        await until(
          () => shadow(element).querySelector('[part~="filters"] > span')?.textContent === 'Searching Aurora 2.1.0 documentation',
          'the site name',
        );
        input(element).value = '';
        await sendKeys({ type: 'scheduler add_job' });
        // Not in the menu: placed under its folder's page (api/index.html, "API reference" under "Reference").
        await until(() => rowPlace(element, '/api/scheduler.html') !== undefined, 'an API page, placed');
        expect(rowPlace(element, '/api/scheduler.html')).to.equal('Reference › API reference');
        for (const place of shadow(element).querySelectorAll('[part~="option-place"]'))
          expect(place.textContent).not.to.match(/\.html|\bguides\b|\bapi\b/);
      },
    );

    it("shows the chosen row's place in its colours, and the row and the matches in high contrast too", async () => {
      const element = await themedPage();
      await openWith(element, 'schedul');
      const chosen = () => shadow(element).querySelector('[role="option"][aria-selected="true"]');
      await until(
        () => !!chosen()?.querySelector('[part~="option-title"] span') && !!chosen()?.querySelector('[part~="option-place"]'),
        'a chosen page with a match and its place',
      );
      // Its place ("Reference › API reference"), grey elsewhere, in the row's own colour on the accent.
      const place = chosen()!.querySelector('[part~="option-place"]')!;
      expect(getComputedStyle(place).color).to.equal(getComputedStyle(chosen()!).color);
      await emulateMedia({ forcedColors: 'active' });
      const canvas = document.createElement('div');
      canvas.style.background = 'Canvas';
      document.body.append(canvas);
      try {
        const background = (node: Element) => getComputedStyle(node).backgroundColor;
        const row = chosen()!;
        const other = options(element).find((option) => option !== row && option.querySelector('[part~="option-title"] span'))!;
        // Forced colours paint every background as the page's (Canvas): the chosen row and the matches keep the system's own.
        expect(background(row)).not.to.equal(background(canvas));
        expect(background(other.querySelector('[part~="option-title"] span')!)).not.to.be.oneOf([background(canvas), background(row)]);
      } finally {
        canvas.remove();
        await emulateMedia({ forcedColors: 'none' });
      }
    });

    it("names the site, not the page, where the theme heads its side bar with the site's name (Dask's)", async () => {
      const element = await themedPage();
      const logo = document.createElement('h1');
      logo.textContent = 'Aurora 2.1.0 documentation';
      element.parentElement!.querySelector('nav')!.prepend(logo);
      await openWith(element, 'worker');
      await until(
        () => shadow(element).querySelector('[part~="filters"] > span')?.textContent === 'Searching Aurora 2.1.0 documentation',
        'the site name',
      );
    });

    /** A page of the docs with the theme's bars given, searched for `query` as on the page itself. */
    async function searchedFromBars(bars: string, query: string, check: (element: DoclensSearch) => Promise<void>): Promise<void> {
      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      container.innerHTML =
        `${bars}<div role="main"><h1>Deploying workers</h1></div>` +
        `<doclens-search proxy="${servers.proxy}" project="aurora" version="latest"></doclens-search>`;
      // The page's links resolve against the docs' address, as on the page itself.
      const base = document.head.appendChild(document.createElement('base'));
      base.href = PAGE();
      try {
        const element = container.querySelector<DoclensSearch>('doclens-search')!;
        await openWith(element, query);
        await check(element);
      } finally {
        base.remove();
      }
    }

    it("leave out the headings that name the theme's navigation rather than a part of the site", async () => {
      // The bars of the Python docs' theme (python-docs-theme, 3.11), cut, their links pointed at the demo's pages.
      const bars =
        '<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3><ul>' +
        '<li class="right"><a href="../genindex.html" title="General Index" accesskey="I">index</a></li>' +
        '<li class="right"><a href="logging.html" title="Logging" accesskey="N">next</a> |</li>' +
        '<li><a href="../index.html">Aurora 2.1.0 documentation</a> &#187;</li></ul></div>' +
        '<div class="sphinxsidebar" role="navigation" aria-label="main navigation"><div class="sphinxsidebarwrapper">' +
        '<div><h3><a href="../index.html">Table of Contents</a></h3><ul><li><a class="reference internal" href="#">Deploying workers</a>' +
        '<ul><li><a class="reference internal" href="#running-under-systemd">Running under systemd</a></li></ul></li></ul></div>' +
        '</div></div>';
      await searchedFromBars(bars, 'worker logging', async (element) => {
        const listed = (path: string) => options(element).some((option) => new URL(option.href).pathname.endsWith(path));
        await until(() => listed('/guides/deployment.html') && listed('/guides/logging.html'), 'the deployment and logging pages');
        for (const place of shadow(element).querySelectorAll('[part~="option-place"]'))
          expect(place.textContent).not.to.match(/Navigation|Table of Contents/);
      });
    });

    for (const { theme, bars } of [
      {
        // lmfit's relbar (sphinx13): its links lead to neither this page nor the site's start, its heading is hidden.
        theme: "a relbar's hidden heading",
        bars:
          '<div class="related" role="navigation" aria-label="related navigation"><h3 style="display: none">Navigation</h3>' +
          '<ul><li>[ <a href="../install.html">install</a> |</li><li><a href="logging.html">logging</a> ]</li></ul></div>',
      },
      {
        // behave's bootstrap-sphinx navbar: the global table of contents labelled by its menu button, which leads to the start.
        theme: "a menu button's label over the global table of contents",
        bars:
          '<nav class="navbar"><a href="../index.html" role="button" id="dLabelGlobalToc">Document</a>' +
          '<ul class="dropdown-menu globaltoc" aria-labelledby="dLabelGlobalToc">' +
          '<li class="toctree-l1"><a href="../install.html">Installing Aurora</a></li>' +
          '<li class="toctree-l1"><a href="logging.html">Logging</a></li></ul></nav>',
      },
      {
        // CherryPy's alabaster side bar, on its start page: a heading that repeats its landmark's name.
        theme: "a heading that repeats its navigation landmark's name",
        bars:
          '<div class="sphinxsidebar" role="navigation" aria-label="main navigation"><h3>Navigation</h3><ul>' +
          '<li class="toctree-l1"><a href="../install.html">Installing Aurora</a></li>' +
          '<li class="toctree-l1"><a href="logging.html">Logging</a></li></ul></div>',
      },
      {
        // fsspec's side bar: one toctree, its caption over every page.
        theme: 'the one caption every page is under',
        bars:
          '<nav role="navigation"><p class="caption" role="heading"><span class="caption-text">Contents:</span></p><ul>' +
          '<li class="toctree-l1"><a href="../install.html">Installing Aurora</a></li>' +
          '<li class="toctree-l1 current"><a href="#">Deploying workers</a></li>' +
          '<li class="toctree-l1"><a href="logging.html">Logging</a></li></ul></nav>',
      },
    ])
      it(`leave out ${theme}: it names the navigation`, async () => {
        await searchedFromBars(bars, 'worker logging', async (element) => {
          const listed = (path: string) => options(element).some((option) => new URL(option.href).pathname.endsWith(path));
          await until(() => listed('/guides/deployment.html') && listed('/guides/logging.html'), 'the deployment and logging pages');
          for (const place of shadow(element).querySelectorAll('[part~="option-place"]'))
            expect(place.textContent).not.to.match(/Navigation|Document|Contents/);
        });
      });

    it('take a group from the label of a list, even a hidden one (ARIA names a list by it)', async () => {
      const bars =
        '<nav><span id="guides-label" hidden>User guides</span><ul aria-labelledby="guides-label">' +
        '<li><a href="../install.html">Installing Aurora</a></li><li><a href="logging.html">Logging</a></li></ul></nav>';
      await searchedFromBars(bars, 'worker logging', async (element) => {
        await until(() => rowPlace(element, '/guides/logging.html') !== undefined, 'the logging page, placed');
        expect(rowPlace(element, '/guides/logging.html')).to.equal('User guides');
      });
    });

    it('take no place from the relbar\'s links, whose texts ("previous", "next") are no titles (Kombu\'s API pages)', async () => {
      // Sphinx's relbar on a Kombu API page, cut: "previous" leads to the folder's start page, listed again under its title.
      const bars =
        '<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3><ul>' +
        '<li class="right"><a href="../genindex.html" title="General Index" accesskey="I">index</a></li>' +
        '<li class="right"><a href="scaling.html" title="Scaling" accesskey="N">next</a> |</li>' +
        '<li class="right"><a href="index.html" title="Guides" accesskey="P">previous</a> |</li>' +
        '<li class="nav-item nav-item-0"><a href="../index.html">Aurora 2.1.0 documentation</a> &#187;</li>' +
        '<li class="nav-item nav-item-1"><a href="index.html" accesskey="U">Guides</a> &#187;</li>' +
        '<li class="nav-item nav-item-this"><a href="">Deploying workers</a></li></ul></div>';
      await searchedFromBars(bars, 'worker logging', async (element) => {
        await until(() => rowPlace(element, '/guides/logging.html') !== undefined, 'the logging page, placed');
        // Not listed itself: placed under its folder's start page, which the relbar lists as "Guides" after "previous".
        expect(rowPlace(element, '/guides/logging.html')).to.equal('Guides');
        for (const place of shadow(element).querySelectorAll('[part~="option-place"]'))
          expect(place.textContent).not.to.match(/previous|next|index/);
      });
    });

    it("leave out a heading that links to the site's start over the whole site's table of contents (statsmodels' nature)", async () => {
      // The sidebar of a statsmodels API page, cut, its links pointed at the demo's pages: the page itself is not in the list.
      const bars =
        '<div class="sphinxsidebar" role="navigation" aria-label="main navigation"><div class="sphinxsidebarwrapper">' +
        '<h3><a href="../index.html">Table of Contents</a></h3><ul>' +
        '<li class="toctree-l1"><a class="reference internal" href="../install.html">Installing Aurora</a></li>' +
        '<li class="toctree-l1"><a class="reference internal" href="index.html">Guides</a><ul>' +
        '<li class="toctree-l2"><a class="reference internal" href="logging.html">Logging</a></li></ul></li>' +
        '<li class="toctree-l1"><a class="reference internal" href="../api/index.html">API Reference</a></li></ul>' +
        '</div></div>';
      await searchedFromBars(bars, 'worker logging', async (element) => {
        await until(() => rowPlace(element, '/guides/logging.html') !== undefined, 'the logging page, placed');
        expect(rowPlace(element, '/guides/logging.html')).to.equal('Guides');
        for (const place of shadow(element).querySelectorAll('[part~="option-place"]'))
          expect(place.textContent).not.to.match(/Table of Contents/);
      });
    });

    it("name the site from a start page's heading where its title names it short (the Python docs' start page)", async () => {
      const element = await themedPage(undefined, { title: '2.1.0 Documentation', heading: 'Aurora 2.1.0 documentation' });
      await element.show();
      await until(
        () => shadow(element).querySelector('[part~="filters"] > span')?.textContent === 'Searching Aurora 2.1.0 documentation',
        'the site name from the heading',
      );
    });

    it("name the site from a start page's title alone (MkDocs titles its start page with the site's name)", async () => {
      const address = location.href;
      history.replaceState(null, '', '/en/latest/');
      try {
        const element = await themedPage(undefined, { title: 'Aurora API', heading: 'About this documentation' });
        await element.show();
        const label = () => shadow(element).querySelector('[part~="filters"] > span')?.textContent ?? '';
        // Aurora has several versions, and the site's name names none: the version searched follows it.
        await until(() => label() === 'Searching Aurora API latest', `the site name (shown: "${label()}")`);
      } finally {
        history.replaceState(null, '', address);
      }
    });

    it('offer "Include subprojects" only for a project that has some', async () => {
      const aurora = await themedPage(`project="aurora" version="latest" page-url="${servers.docs}/en/latest/"`);
      await aurora.show();
      await until(() => !!shadow(aurora).querySelector('[part~="filters"] input[type="checkbox"]'), 'Aurora has its plugins');
      await aurora.hide();
      const skyline = await themedPage(`project="skyline" version="latest" page-url="${servers.docs}/en/latest/"`);
      await skyline.show();
      await until(() => shadow(skyline).querySelector('[part~="filters"] > span')?.textContent === 'Searching Skyline', 'names known');
      expect(shadow(skyline).querySelector('[part~="filters"] input[type="checkbox"]')).to.equal(null);
    });
  });

  it("shows two lines of a section's title, an API entry's whole signature included, and keeps all of it to be read", async () => {
    const signature = `pandas.read_csv(${Array.from({ length: 50 }, (_, index) => `option_${index}=None`).join(', ')})`;
    const original = window.fetch;
    window.fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!url.pathname.endsWith('/search/')) return original(input, init);
      const answer = (await (await original(input, init)).json()) as SearchResponse;
      const [first] = answer.results;
      const block = { type: 'domain', id: 'pandas.read_csv', name: signature, role: 'py:function', content: 'Reads a file.' } as const;
      answer.results = [{ ...first!, blocks: [{ ...block, highlights: { name: [], content: [] } }] }];
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    };
    try {
      const element = await fixture<DoclensSearch>(html`<doclens-search proxy=${servers.proxy} debounce="0"></doclens-search>`);
      await element.show('retry');
      const title = () => options(element)[1]?.querySelector<HTMLElement>('[part~="option-title"]');
      await until(() => title()?.textContent?.trim() === signature, 'the entry of the long signature');
      // One line of a title: a copy of its element holding one word.
      const line = title()!.cloneNode(false) as HTMLElement;
      line.textContent = 'read_csv';
      title()!.after(line);
      const lineHeight = line.getBoundingClientRect().height;
      line.remove();
      expect(title()!.getBoundingClientRect().height).to.be.at.most(2 * lineHeight + 1);
      expect(title()!.scrollHeight).to.be.greaterThan(title()!.clientHeight);
    } finally {
      window.fetch = original;
    }
  });

  it('titles API results without the [source] labels that real Sphinx sites give them (Requests docs)', async () => {
    const element = await fixture<DoclensSearch>(
      html`<doclens-search proxy=${servers.real.proxy} project="real-docs" version="latest"></doclens-search>`,
    );
    await openWith(element, 'requests get');
    const titles = () => options(element).map((option) => option.querySelector('[part~="option-title"]')!.textContent!.trim());
    await until(() => titles().some((title) => title.startsWith('requests.get(')), 'the requests.get entry');
    expect(titles()).to.include('requests.get(url, params=None, **kwargs)');
    for (const title of titles()) expect(title).not.to.match(/\[source\]|¶/);
  });
});
