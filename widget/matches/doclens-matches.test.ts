import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { DoclensMatches } from './doclens-matches.ts';
import './doclens-matches.ts';
import { takeKey } from '../shared/hotkeys.ts';
import { highlightSearchedTerms } from '../shared/page.ts';
import { installThemeShortcuts } from '../search/theme-shortcuts.fixture.ts';
import { until } from '../test-support.ts';

const part = (matches: DoclensMatches, name: string) => matches.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`)!;
const current = () => [...document.querySelectorAll('mark[aria-current="true"]')];
const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, index) => html`<p style="margin-bottom: 400px">Paragraph ${index}: a retry policy.</p>`);

/** A phone theme's menu button pinned to the first corner the bar would take. */
function pinnedMenu(): HTMLButtonElement {
  const menu = document.createElement('button');
  menu.textContent = 'Menu';
  menu.style.cssText = 'position: fixed; left: 8px; bottom: 8px; width: 200px; height: 48px';
  return document.body.appendChild(menu);
}

/** A page whose main content has three marked words, then the bar. */
async function markedPage(): Promise<{ container: HTMLElement; matches: DoclensMatches }> {
  const container = await fixture<HTMLDivElement>(html`<div><div role="main">${paragraphs(3)}</div></div>`);
  const original = location.href;
  history.replaceState(null, '', `${location.pathname}?highlight=retry`);
  highlightSearchedTerms(container);
  history.replaceState(null, '', original);
  const matches = document.createElement('doclens-matches');
  container.append(matches);
  await matches.updateComplete;
  return { container, matches };
}

describe('<doclens-matches>', () => {
  afterEach(() => setViewport({ width: 800, height: 600 }));

  it('counts the marks and steps through them both ways, wrapping, marking the current one', async () => {
    const { container, matches } = await markedPage();
    const marks = [...container.querySelectorAll('mark')];
    expect(part(matches, 'count').textContent).to.equal('3 matches');
    part(matches, 'next').click();
    await matches.updateComplete;
    expect(current()).to.deep.equal([marks[0]]);
    expect(part(matches, 'count').textContent).to.equal('1 of 3');
    part(matches, 'previous').click();
    await matches.updateComplete;
    expect(current()).to.deep.equal([marks[2]]);
    expect(part(matches, 'count').textContent).to.equal('3 of 3');
    await until(() => {
      const box = marks[2]!.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }, 'the current match scrolled into view');
    part(matches, 'next').click();
    await matches.updateComplete;
    expect(part(matches, 'count').textContent).to.equal('1 of 3');
  });

  it('steps with Enter and Shift+Enter in the bar', async () => {
    const { matches } = await markedPage();
    part(matches, 'next').focus();
    await sendKeys({ press: 'Enter' });
    await sendKeys({ press: 'Enter' });
    await matches.updateComplete;
    expect(matches.position).to.deep.equal({ current: 2, total: 3 });
    await sendKeys({ press: 'Shift+Enter' });
    await matches.updateComplete;
    expect(matches.position).to.deep.equal({ current: 1, total: 3 });
  });

  it('removes the marks with one click, leaving the text whole, and hides', async () => {
    const { container, matches } = await markedPage();
    const text = container.textContent;
    part(matches, 'clear').click();
    await matches.updateComplete;
    expect(container.querySelector('mark')).to.equal(null);
    expect(container.textContent).to.equal(text);
    const split = [...container.querySelectorAll('p')]
      .flatMap((paragraph) => [...paragraph.childNodes])
      .filter((node) => node instanceof Text && node.nextSibling instanceof Text);
    expect(split).to.deep.equal([]);
    expect(matches.shadowRoot!.querySelector('[part~="bar"]')).to.equal(null);
  });

  it('renders nothing when the page has no marks', async () => {
    const matches = await fixture<DoclensMatches>(html`<doclens-matches></doclens-matches>`);
    expect(matches.shadowRoot!.querySelector('[part~="bar"]')).to.equal(null);
  });

  it('leaves a phone page’s pinned menu button free', async () => {
    await setViewport({ width: 390, height: 844 });
    const { matches } = await markedPage();
    const menu = pinnedMenu();
    try {
      window.dispatchEvent(new Event('resize'));
      await until(() => part(matches, 'bar').dataset.spot !== 'bottom-start', 'the bar moving off the menu button', 2000);
      const bar = part(matches, 'bar').getBoundingClientRect();
      const button = menu.getBoundingClientRect();
      expect(bar.bottom <= button.top || bar.top >= button.bottom || bar.left >= button.right).to.equal(true);
    } finally {
      menu.remove();
    }
  });

  it('leaves the matches in sight free where the page leaves it a corner (a phone landed on a result)', async () => {
    await setViewport({ width: 390, height: 844 });
    const { container, matches } = await markedPage();
    // The first match at the top's end, where a link to its section scrolls it; the first corner is the menu's.
    container.querySelector('p')!.style.textAlign = 'end';
    const menu = pinnedMenu();
    try {
      window.dispatchEvent(new Event('resize'));
      await until(() => part(matches, 'bar').dataset.spot === 'top-start', 'the bar in the corner no match is in', 2000);
      const bar = part(matches, 'bar').getBoundingClientRect();
      for (const mark of container.querySelectorAll('mark')) {
        const box = mark.getBoundingClientRect();
        expect(bar.bottom <= box.top || bar.top >= box.bottom || bar.right <= box.left || bar.left >= box.right).to.equal(true);
      }
    } finally {
      menu.remove();
    }
  });

  it('marks whole words and the forms searched, starts at the chosen section, and closes with Escape', async () => {
    // Cut from a Sphinx module page (Read the Docs theme): sections with ids, the searched words before and in them.
    const container = await fixture<HTMLDivElement>(html`<div>
      <div role="main">
        <section id="tornado-web"><h1>tornado.web</h1><p>Navigation helpers; see installing below. A nav bar.</p></section>
        <section id="installing"><h2>Installing</h2><p style="margin-bottom: 1200px">Installing the nav package: pip install.</p></section>
      </div>
    </div>`);
    const original = location.href;
    history.replaceState(null, '', `${location.pathname}?highlight=nav+installing#installing`);
    highlightSearchedTerms(container);
    const marks = [...container.querySelectorAll('mark')];
    expect(marks.map((mark) => mark.textContent)).to.deep.equal(['installing', 'nav', 'Installing', 'Installing', 'nav']);
    const matches = document.createElement('doclens-matches');
    container.append(matches);
    await matches.updateComplete;
    history.replaceState(null, '', original);
    part(matches, 'next').click();
    await matches.updateComplete;
    expect(current(), 'the first match of the chosen section').to.deep.equal([marks[2]]);
    expect(part(matches, 'count').textContent).to.equal('3 of 5');
    document.body.focus();
    await sendKeys({ press: 'Escape' });
    await until(() => !container.querySelector('mark'), 'marks removed by Escape');
    await matches.updateComplete;
    expect(matches.shadowRoot!.querySelector('[part~="bar"]')).to.equal(null);
  });

  it('closes with Escape on a Sphinx page, whose sphinx_highlight.js cancels every Escape', async () => {
    // The theme's handler is there first, as the page's scripts run before doclens mounts the bar.
    const box = document.createElement('input');
    document.body.append(box);
    const theme = installThemeShortcuts(window, box);
    const { container, matches } = await markedPage();
    try {
      document.body.focus();
      await sendKeys({ press: 'Escape' });
      await until(() => !container.querySelector('mark'), 'marks removed by Escape');
      expect(theme.actions).to.include('sphinx: took Escape');
      await matches.updateComplete;
      expect(matches.shadowRoot!.querySelector('[part~="bar"]')).to.equal(null);
    } finally {
      theme.remove();
      box.remove();
    }
  });

  it('keeps the marks when the Escape was taken by another doclens control (a preview closing)', async () => {
    const { container } = await markedPage();
    const takenByPreview = (event: KeyboardEvent) => takeKey(event);
    document.addEventListener('keydown', takenByPreview);
    try {
      document.body.focus();
      await sendKeys({ press: 'Escape' });
      // The bar decides in a task queued while the key went through the page: one after it has run.
      await new Promise((resolve) => setTimeout(resolve));
      expect(container.querySelectorAll('mark').length).to.equal(3);
    } finally {
      document.removeEventListener('keydown', takenByPreview);
    }
  });
});
