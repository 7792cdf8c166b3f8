import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse, setViewport } from '@web/test-runner-commands';
import type { DoclensPreview } from './doclens-preview.ts';
import './doclens-preview.ts';
import { afterEarlierImageErrors, fakeTimeouts, nextFrame, servers, until, watchFetches } from '../test-support.ts';

const docsHost = () => new URL(servers.docs).host;
const hostileHost = () => new URL(servers.hostile).host;

async function hover(element: Element) {
  const box = element.getBoundingClientRect();
  await sendMouse({ type: 'move', position: [Math.round(box.left + Math.min(8, box.width / 2)), Math.round(box.top + box.height / 2)] });
}

async function moveAway() {
  await sendMouse({ type: 'move', position: [5, window.innerHeight - 5] });
}

function popup(preview: DoclensPreview): HTMLElement {
  return preview.shadowRoot!.querySelector<HTMLElement>('[part~="popup"]')!;
}

/** A tap as a touch screen sends it: the pointer down, then the click. */
function tap(element: Element) {
  element.dispatchEvent(new PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true, composed: true }));
  element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }));
}

const isOpen = (preview: DoclensPreview) => popup(preview).matches(':popover-open');
const part = (preview: DoclensPreview, name: string) => preview.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`)!;

/** A picture that takes its size only once it has loaded, as images in real sections do. */
function picture(width: number, height: number): Promise<HTMLImageElement> {
  const image = new Image();
  image.alt = '';
  const loaded = new Promise<HTMLImageElement>((resolve) => image.addEventListener('load', () => resolve(image), { once: true }));
  image.src = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"/>`)}`;
  return loaded.then(() => image);
}

/** Whether `inner` lies inside `outer`, to the pixel. */
function inside(inner: DOMRect, outer: { left: number; top: number; right: number; bottom: number }): boolean {
  return (
    inner.left >= outer.left - 0.5 && inner.top >= outer.top - 0.5 && inner.right <= outer.right + 0.5 && inner.bottom <= outer.bottom + 0.5
  );
}

const viewport = () => ({ left: 0, top: 0, right: document.documentElement.clientWidth, bottom: window.innerHeight });

async function page(proxy: string, domains: string, links: unknown) {
  const container = await fixture<HTMLDivElement>(html`<div>
    <div role="main" style="padding: 40px">${links}</div>
    <p><a id="outside" href=${`${servers.docs}/en/latest/glossary.html#term-job`}>outside main</a></p>
    <doclens-preview proxy=${proxy} domains=${domains} show-delay="300" hide-delay="150"></doclens-preview>
  </div>`);
  return { container, preview: container.querySelector('doclens-preview')! };
}

describe('<doclens-preview>', () => {
  afterEach(async () => {
    await resetMouse();
    await setViewport({ width: 800, height: 600 });
  });

  it('shows the linked section after the hover delay, not before, and keeps it while the pointer is inside', async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p>A <a id="term" href=${`${servers.docs}/en/latest/glossary.html#term-job`}>job</a> runs.</p>`,
    );
    const link = container.querySelector<HTMLAnchorElement>('#term')!;
    const clock = fakeTimeouts();
    try {
      const shown = oneEvent(preview, 'doclens-preview-show');
      await hover(link);
      await clock.tickAsync(299);
      await preview.updateComplete;
      expect(isOpen(preview), 'open before the delay').to.equal(false);
      await clock.tickAsync(1);
      await shown;
    } finally {
      clock.restore();
    }
    await until(() => !!preview.shadowRoot!.querySelector('[part~="title"]'), 'content');
    expect(preview.shadowRoot!.querySelector('[part~="title"]')!.textContent!.toLowerCase()).to.contain('job');
    expect(preview.shadowRoot!.querySelector<HTMLAnchorElement>('[part~="more"]')!.href).to.equal(
      `${servers.docs}/en/latest/glossary.html#term-job`,
    );
    expect(link.getAttribute('aria-describedby')).to.equal(preview.id);
    const hideClock = fakeTimeouts();
    try {
      await hover(popup(preview));
      // Well past the hide delay: the pointer inside the preview keeps it.
      await hideClock.tickAsync(1000);
      expect(isOpen(preview)).to.equal(true);
      const hidden = oneEvent(preview, 'doclens-preview-hide');
      await moveAway();
      await hideClock.tickAsync(150);
      await hidden;
    } finally {
      hideClock.restore();
    }
    expect(isOpen(preview)).to.equal(false);
    expect(link.hasAttribute('aria-describedby')).to.equal(false);
  });

  it('opens on keyboard focus and closes on Escape, keeping focus on the link', async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p><a id="api" href=${`${servers.docs}/en/latest/api/scheduler.html#aurora.Scheduler.add_job`}>add_job</a></p>`,
    );
    const link = container.querySelector<HTMLAnchorElement>('#api')!;
    container.querySelector<HTMLElement>('[role="main"]')!.tabIndex = -1;
    container.querySelector<HTMLElement>('[role="main"]')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(link);
    await until(() => isOpen(preview), 'open on focus');
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'content');
    expect(preview.shadowRoot!.querySelector('[part~="content"]')!.textContent).to.contain('add_job');
    // No live region (a preview on hover would be read aloud on mouse moves); the signature's <dt> in its <dl>.
    expect(preview.shadowRoot!.querySelector('[aria-live]')).to.equal(null);
    await expect(preview).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
    await sendKeys({ press: 'Escape' });
    expect(isOpen(preview)).to.equal(false);
    expect(document.activeElement).to.equal(link);
  });

  it("from the focused link, Tab goes on to the next link; Alt+ArrowDown moves into the preview's links, Shift+Tab back", async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p><a id="term" href=${`${servers.docs}/en/latest/glossary.html#term-job`}>job</a> <a id="after" href="#after">after</a></p>`,
    );
    const link = container.querySelector<HTMLAnchorElement>('#term')!;
    container.querySelector<HTMLElement>('[role="main"]')!.tabIndex = -1;
    container.querySelector<HTMLElement>('[role="main"]')!.focus();
    await sendKeys({ press: 'Tab' });
    await until(() => !!preview.shadowRoot!.querySelector('[part~="more"]'), 'the preview with its links');
    // One Tab from link to link, as readers of Kombu's or Scrapy's pages expect (it took 2 to 5 there).
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(container.querySelector('#after'));
    await sendKeys({ press: 'Shift+Tab' });
    await until(() => !!preview.shadowRoot!.querySelector('[part~="more"]'), 'the preview again');
    const stops = [...preview.shadowRoot!.querySelectorAll<HTMLElement>('a[href], [tabindex="0"]')];
    expect(link.getAttribute('aria-keyshortcuts')).to.equal('Alt+ArrowDown');
    await sendKeys({ press: 'Alt+ArrowDown' });
    expect(preview.shadowRoot!.activeElement).to.equal(stops[0]);
    expect(isOpen(preview)).to.equal(true);
    await sendKeys({ press: 'Shift+Tab' });
    expect(document.activeElement).to.equal(link);
    await sendKeys({ press: 'Alt+ArrowDown' });
    for (let step = 1; step < stops.length; step++) await sendKeys({ press: 'Tab' });
    expect(preview.shadowRoot!.activeElement).to.equal(stops.at(-1));
    await sendKeys({ press: 'Escape' });
    expect(isOpen(preview)).to.equal(false);
    expect(document.activeElement).to.equal(link);
  });

  it('on a touch screen, a first tap previews with an "Open" action, a second follows the link, a tap elsewhere closes', async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p>A <a id="term" href=${`${servers.docs}/en/latest/glossary.html#term-job`}>job</a> runs.</p>`,
    );
    const link = container.querySelector<HTMLAnchorElement>('#term')!;
    const followed: boolean[] = [];
    // The page's own listener sees whether doclens kept the tap, then keeps the test page where it is.
    link.addEventListener('click', (event) => {
      followed.push(!event.defaultPrevented);
      event.preventDefault();
    });
    tap(link);
    expect(followed).to.deep.equal([false]);
    await until(() => isOpen(preview), 'open on the first tap');
    expect(part(preview, 'more').textContent).to.contain('Open');
    expect(part(preview, 'more').getAttribute('href')).to.equal(link.href);
    // A finger's target.
    expect(part(preview, 'more').getBoundingClientRect().height).to.be.at.least(44);
    tap(link);
    expect(followed).to.deep.equal([false, true]);
    tap(container.querySelector('p')!);
    expect(isOpen(preview)).to.equal(false);
    preview.touch = 'off';
    tap(link);
    expect(followed).to.deep.equal([false, true, true]);
    expect(isOpen(preview)).to.equal(false);
  });

  it('previews only documentation links in the main content, including links added later', async () => {
    const docs = servers.docs;
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p>
        <a id="doc" href=${`${docs}/en/2.0/quickstart.html`}>other version</a>
        <a id="sub" href=${`${docs}/projects/plugins/en/latest/index.html`}>subproject</a>
        <a id="anchor" href="#local">here</a>
        <a id="self" href="">this page</a>
        <a id="external" href="https://example.com/docs/">elsewhere</a>
        <a id="download" href=${`${docs}/en/latest/_downloads/aurora.zip`}>zip</a>
        <a id="source" href=${`${docs}/en/latest/_sources/index.rst.txt`}>source</a>
        <a id="mail" href="mailto:team@example.org">mail</a>
        <a id="js" href="javascript:void(0)">js</a>
        <a id="optout" data-doclens-preview="off" href=${`${docs}/en/latest/faq.html`}>opted out</a>
        <span class="doclens-no-preview"><a id="optout-class" href=${`${docs}/en/latest/faq.html`}>opted out</a></span>
      </p>
      <dl><dt id="term-lease">lease<a id="permalink" class="a-theme-nobody-has-seen"
        href="#term-lease">¶</a></dt><dd>A claim on a run.</dd></dl>`,
    );
    const eligible = (id: string) => !!preview.previewUrl(container.querySelector<HTMLAnchorElement>(`#${id}`)!);
    expect(['doc', 'sub', 'anchor'].map(eligible)).to.deep.equal([true, true, true]);
    // A permalink points at the element around it, whatever its class: the section the reader is in.
    expect(
      ['self', 'external', 'download', 'source', 'mail', 'js', 'optout', 'optout-class', 'outside', 'permalink'].map(eligible),
    ).to.deep.equal(Array(10).fill(false));

    const later = document.createElement('a');
    later.href = `${docs}/en/latest/installation.html`;
    later.textContent = 'added later';
    container.querySelector('[role="main"] p')!.append(later);
    await hover(later);
    await until(() => isOpen(preview), 'preview for a link added later');
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'content');
    await moveAway();
  });

  it("previews no link of the site's menu before the page's title in the main content (lxml's pages mark none)", async () => {
    const docs = `${servers.docs}/en/latest`;
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<div>
        <div>Menu<ul>
          <li><a id="menu" href=${`${docs}/quickstart.html`}>Quickstart</a></li>
          <li><a href=${`${docs}/installation.html`}>Installation</a></li>
          <li><a href=${`${docs}/glossary.html`}>Glossary</a></li>
        </ul></div>
        <h1>Jobs</h1>
        <p>
          A <a id="text" href=${`${docs}/glossary.html#term-job`}>job</a> runs;
          see the <a id="also" href=${`${docs}/quickstart.html`}>quickstart</a>.
        </p>
      </div>`,
    );
    const eligible = (id: string) => !!preview.previewUrl(container.querySelector<HTMLAnchorElement>(`#${id}`)!);
    expect(['menu', 'text', 'also'].map(eligible)).to.deep.equal([false, true, true]);
  });

  it('in static mode, previews no link off the site’s pages (its home page beside the docs), a first tap on one followed', async () => {
    // Files as doclens build writes them, for a site of one page, guide.html, beside this test.
    const site = new URL('./test-static/', import.meta.url).href;
    const container = await fixture<HTMLDivElement>(html`<div>
      <div role="main" style="padding: 40px">
        <p><a id="home" href="/home/">home</a> <a id="guide" href=${`${site}guide.html`}>guide</a></p>
      </div>
      <doclens-preview static=${`${site}_doclens/`} show-delay="300" hide-delay="150"></doclens-preview>
    </div>`);
    const preview = container.querySelector('doclens-preview')!;
    const home = container.querySelector<HTMLAnchorElement>('#home')!;
    const followed: boolean[] = [];
    home.addEventListener('click', (event) => {
      followed.push(!event.defaultPrevented);
      event.preventDefault();
    });
    // Tapped before the site's files are read, it may preview: the tap is held, then followed once they show it leads off the site.
    const shown = oneEvent(preview, 'doclens-preview-show');
    tap(home);
    await shown;
    await until(() => followed.length === 2, 'the tap followed');
    expect(followed).to.deep.equal([false, true]);
    expect(isOpen(preview)).to.equal(false);
    expect(preview.previewUrl(home)).to.equal(undefined);
    await hover(container.querySelector('#guide')!);
    await until(() => isOpen(preview) && !!part(preview, 'content'), 'the guide previewed');
    expect(part(preview, 'content').textContent).to.equal('How the guide goes.');
    await moveAway();
  });

  it('says a preview shows the beginning only, after whole blocks, once (not after a text cut with "…" already)', async () => {
    const hostile = servers.hostile;
    const { container, preview } = await page(
      hostile,
      hostileHost(),
      html`<p><a id="blocks" href=${`${hostile}/en/latest/cut-blocks.html#x`}>flags</a>
        <a id="text" href=${`${hostile}/en/latest/cut-text.html#x`}>text</a></p>`,
    );
    await preview.show(container.querySelector<HTMLAnchorElement>('#blocks')!);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] dt'), 'the flags');
    expect(part(preview, 'cut').textContent).to.equal('…');
    await preview.hide();
    await preview.show(container.querySelector<HTMLAnchorElement>('#text')!);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] p'), 'the text');
    expect(preview.shadowRoot!.querySelector('[part~="cut"]')).to.equal(null);
    await preview.hide();
  });

  it("keeps a table's every column readable on a phone: a long name does not squeeze the others, the table scrolls", async () => {
    await setViewport({ width: 390, height: 844 });
    try {
      const hostile = servers.hostile;
      const { container, preview } = await page(
        hostile,
        hostileHost(),
        html`<p><a id="buffers" href=${`${hostile}/en/latest/wide-table.html#readbuffering`}>Read Buffering</a></p>`,
      );
      await preview.show(container.querySelector<HTMLAnchorElement>('#buffers')!);
      await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] td'), 'the table');
      const [name, description] = [...part(preview, 'content').querySelectorAll('tr:first-child td')];
      expect(description!.getBoundingClientRect().width).to.be.at.least(80);
      expect(name!.getBoundingClientRect().width).to.be.at.least(80);
      // A one-line row is a line high: the cell's paragraph keeps no margin below it.
      expect(getComputedStyle(description!.querySelector('p')!).marginBottom).to.equal('0px');
      await preview.hide();
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  // A 502, and a 200 whose JSON is not in the shape of the contract.
  for (const [linked, why] of [
    ['broken', 'the section cannot be had'],
    ['malformed', 'the answer is not in the shape of the contract'],
  ] as const) {
    it(`shows a loading skeleton, then a quiet error when ${why}`, async () => {
      const hostile = servers.hostile;
      const { container, preview } = await page(
        hostile,
        hostileHost(),
        html`<p><a id=${linked} href=${`${hostile}/en/latest/${linked}.html#x`}>${linked}</a></p>`,
      );
      await hover(container.querySelector(`#${linked}`)!);
      await until(() => isOpen(preview), 'open');
      await until(() => !!part(preview, 'unavailable'), 'error state');
      expect(part(preview, 'unavailable').textContent).to.equal('Preview unavailable');
      expect(part(preview, 'content')).to.equal(null);
      await moveAway();
    });
  }

  it('asks once for a target that is not there, however often it is hovered; a failure of the service is asked again', async () => {
    const hostile = servers.hostile;
    const { container, preview } = await page(
      hostile,
      hostileHost(),
      html`<p><a id="missing" href=${`${hostile}/en/latest/missing.html`}>changelog</a>
        <a id="broken" href=${`${hostile}/en/latest/broken.html#x`}>broken</a></p>`,
    );
    const watched = watchFetches();
    const asked = (name: string) => watched.requests.filter(({ url }) => url.searchParams.get('url')?.includes(name)).length;
    const hoverOver = async (name: string) => {
      await hover(container.querySelector(`#${name}`)!);
      await until(() => !!part(preview, 'unavailable'), `${name} unavailable`);
      await moveAway();
      await until(() => !isOpen(preview), 'closed');
    };
    try {
      for (const name of ['missing', 'missing', 'broken']) await hoverOver(name);
      expect(asked('missing')).to.equal(1);
      expect(asked('broken')).to.equal(1);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      await hoverOver('broken');
      expect(asked('broken')).to.equal(2);
    } finally {
      watched.restore();
    }
  });

  it("says a preview is unavailable when the page has no title and no text (Kombu's changelog, its banner left out)", async () => {
    const hostile = servers.hostile;
    const { container, preview } = await page(
      hostile,
      hostileHost(),
      html`<p><a id="empty" href=${`${hostile}/en/latest/empty.html`}>log</a></p>`,
    );
    await hover(container.querySelector('#empty')!);
    await until(() => isOpen(preview), 'open');
    await until(() => !!part(preview, 'unavailable'), 'unavailable');
    expect(part(preview, 'content')).to.equal(null);
    await moveAway();
  });

  it("sets an admonition apart under its title, a warning in the danger colour (django-tables2's notes)", async () => {
    const hostile = servers.hostile;
    const { container, preview } = await page(
      hostile,
      hostileHost(),
      html`<p><a id="admonition" href=${`${hostile}/en/latest/api/admonition.html#linkcolumn`}>LinkColumn</a></p>`,
    );
    await hover(container.querySelector('#admonition')!);
    await until(() => !!part(preview, 'content')?.querySelector('.admonition'), 'the admonition');
    const [note, warning] = [...part(preview, 'content').querySelectorAll<HTMLElement>('.admonition')];
    const paragraph = getComputedStyle(part(preview, 'content').querySelector('p')!);
    expect(getComputedStyle(note!).borderInlineStartWidth).to.equal('3px');
    expect(getComputedStyle(note!).backgroundColor).to.not.equal(paragraph.backgroundColor);
    expect(getComputedStyle(note!.querySelector('.admonition-title')!).fontWeight).to.equal('600');
    expect(getComputedStyle(warning!).borderInlineStartColor).to.not.equal(getComputedStyle(note!).borderInlineStartColor);
    // Its list's items are a line apart, not a paragraph's margin.
    const items = [...note!.querySelectorAll('li')];
    expect(items[1]!.getBoundingClientRect().top - items[0]!.getBoundingClientRect().bottom).to.be.below(8);
    await moveAway();
  });

  it("says a section has no text under its title rather than showing an empty card (cmd2's API pages)", async () => {
    const hostile = servers.hostile;
    const { container, preview } = await page(
      hostile,
      hostileHost(),
      html`<p><a id="title-only" href=${`${hostile}/en/latest/api/title-only.html#cmd2-ansi`}>ansi</a></p>`,
    );
    await hover(container.querySelector('#title-only')!);
    await until(() => !!part(preview, 'empty'), 'the note under the title');
    expect(part(preview, 'title').textContent).to.equal('cmd2.ansi');
    expect(part(preview, 'empty').textContent).to.equal('This section has no text');
    expect(part(preview, 'content')).to.equal(null);
    await moveAway();
  });

  it('shows nothing for a slow answer that arrives after the pointer left', async () => {
    const hostile = servers.hostile;
    const { container, preview } = await page(
      hostile,
      hostileHost(),
      html`<p><a id="slow" href=${`${hostile}/en/latest/slow.html#x`}>slow</a></p>`,
    );
    const watched = watchFetches();
    try {
      await hover(container.querySelector('#slow')!);
      await until(() => isOpen(preview), 'open');
      expect(preview.shadowRoot!.querySelector('[part~="skeleton"]')).to.not.equal(null);
      await moveAway();
      await until(() => !isOpen(preview), 'closed');
      // The late answer has arrived and been read; a frame later, whatever it would show is shown.
      expect(await watched.requests.find(({ url }) => url.pathname.endsWith('/embed/'))!.outcome).to.equal('read');
      await nextFrame();
      await preview.updateComplete;
    } finally {
      watched.restore();
    }
    expect(isOpen(preview)).to.equal(false);
    expect(preview.shadowRoot!.querySelector('[part~="content"]')).to.equal(null);
  });

  it('renders hostile embed content inert: nothing runs and the page keeps its styles', async () => {
    const hostile = servers.hostile;
    const { container, preview } = await page(
      hostile,
      hostileHost(),
      html`<p><a id="evil" href=${`${hostile}/en/latest/evil.html#x`}>evil</a></p>`,
    );
    const before = getComputedStyle(document.body).display;
    await hover(container.querySelector('#evil')!);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'content');
    const content = preview.shadowRoot!.querySelector('[part~="content"]')!;
    expect(content.textContent).to.contain('Safe text');
    expect(content.querySelectorAll('script, style, iframe, svg, math, base, form, input, [onerror], [onload], [style]').length).to.equal(
      0,
    );
    for (const link of content.querySelectorAll('a')) expect(link.getAttribute('href') ?? '').to.not.match(/^(javascript|data):/i);
    expect(preview.shadowRoot!.querySelector('[part~="title"]')!.textContent).to.equal('Hostile <b>title</b>');
    await afterEarlierImageErrors();
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined);
    expect(getComputedStyle(document.body).display).to.equal(before);
    expect(document.querySelector('base, meta[http-equiv]')).to.equal(null);
    expect(typeof document.getElementById).to.equal('function');
    expect(document.body).to.be.instanceOf(HTMLBodyElement);
    expect(getComputedStyle(preview).display).to.equal('contents');
    expect(content.querySelectorAll('[id], [name], details[ontoggle], object, link, noscript, template, video').length).to.equal(0);
    expect(content.textContent).to.contain('Still here');
    await moveAway();
  });

  it('writes formulas as MathML without links, styles or markup of their TeX, and leaves one it cannot read as TeX', async () => {
    const hostile = servers.hostile;
    const { container, preview } = await page(
      hostile,
      hostileHost(),
      html`<p><a id="formulas" href=${`${hostile}/en/latest/formulas.html#x`}>formulas</a></p>`,
    );
    await preview.show(container.querySelector<HTMLAnchorElement>('#formulas')!);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] math'), 'formulas');
    const content = part(preview, 'content');
    expect(content.querySelectorAll('math').length).to.equal(3);
    expect(content.querySelectorAll('[href], [style], [id], [mathcolor], [mathbackground], img, mglyph, semantics').length).to.equal(0);
    for (const element of content.querySelectorAll('math *')) expect(element.namespaceURI).to.equal('http://www.w3.org/1998/Math/MathML');
    // Markup in a formula's text is text.
    expect(content.querySelector('math[display="block"]')!.textContent).to.match(/<img\ssrc=x/);
    for (const tex of [String.raw`\(\frac{1}{\)`, String.raw`\(\href{javascript:`, String.raw`\(\style{`])
      expect(content.textContent).to.contain(tex);
    await afterEarlierImageErrors();
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined);
    expect((window as unknown as { pwned?: number }).pwned).to.equal(undefined);
    await preview.hide();
  });

  it('stays inside the viewport near its edges', async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p style="position: fixed; right: 0; bottom: 0; margin: 0"><a id="edge"
        href=${`${servers.docs}/en/latest/architecture.html`}>edge</a></p>`,
    );
    await hover(container.querySelector('#edge')!);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'content');
    // Placed again once the content is in: inside the viewport, above the link.
    await until(() => inside(popup(preview).getBoundingClientRect(), viewport()) && popup(preview).dataset.side === 'top', 'placed');
    const box = popup(preview).getBoundingClientRect();
    expect(box.right).to.be.at.most(window.innerWidth);
    expect(box.bottom).to.be.at.most(window.innerHeight);
    expect(box.left).to.be.at.least(0);
    expect(box.top).to.be.at.least(0);
    expect(popup(preview).dataset.side).to.equal('top');
    await moveAway();
  });

  it('is placed again when its content grows: an image loading keeps it above a link near the bottom', async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p style="position: fixed; left: 40px; bottom: 20px; margin: 0"><a id="low"
        href=${`${servers.docs}/en/latest/glossary.html#term-job`}>job</a></p>`,
    );
    const link = container.querySelector<HTMLAnchorElement>('#low')!;
    await preview.show(link);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'content');
    await until(() => popup(preview).dataset.side === 'top', 'placed above the link');
    const before = popup(preview).getBoundingClientRect();
    // Appended before it loads, as the image of a real section: it has no size yet.
    const image = picture(240, 140);
    part(preview, 'content').append(await image);
    await until(() => popup(preview).getBoundingClientRect().height >= before.height + 100, 'the tooltip grew');
    await until(() => popup(preview).getBoundingClientRect().bottom <= link.getBoundingClientRect().top, 'placed again above the link');
    expect(popup(preview).getBoundingClientRect().top).to.be.below(before.top - 100);
    expect(inside(popup(preview).getBoundingClientRect(), viewport())).to.equal(true);
    await preview.hide();
  });

  it('fits a phone screen near every edge, with "Read more" in view below the scrolling text', async () => {
    await setViewport({ width: 390, height: 844 });
    const spots = ['left: 0; top: 0', 'right: 0; top: 0', 'left: 0; bottom: 0', 'right: 0; bottom: 0', 'left: 40%; top: 45%'];
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`${spots.map(
        (spot, index) => html`<p style="position: fixed; margin: 0; ${spot}"><a id=${`edge-${index}`}
        href=${`${servers.docs}/en/latest/architecture.html`}>edge ${index}</a></p>`,
      )}`,
    );
    for (const [index] of spots.entries()) {
      await preview.show(container.querySelector<HTMLAnchorElement>(`#edge-${index}`)!);
      await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'content');
      // Long content: far more than the room on either side of the link.
      part(preview, 'content').append(await picture(300, 2000));
      await nextFrame();
      await nextFrame();
      const box = popup(preview).getBoundingClientRect();
      const scroll = preview.shadowRoot!.querySelector<HTMLElement>('[part~="body"]')!;
      const more = part(preview, 'more').getBoundingClientRect();
      expect(inside(box, viewport()), `tooltip ${index} in the viewport`).to.equal(true);
      expect(scroll.scrollHeight, `text ${index} scrolls`).to.be.above(scroll.clientHeight);
      expect(scroll.tabIndex, `text ${index} scrolls by keyboard`).to.equal(0);
      expect(inside(more, viewport()) && inside(more, box), `Read more ${index} in view`).to.equal(true);
      expect(more.top, `Read more ${index} below the scrolling part`).to.be.at.least(scroll.getBoundingClientRect().bottom);
      expect(preview.shadowRoot!.elementFromPoint(more.left + more.width / 2, more.top + more.height / 2)).to.equal(part(preview, 'more'));
      await preview.hide();
    }
  });

  it("in right-to-left text, lines up with the link's right edge and extends to its left", async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p dir="rtl"><a id="rtl" href=${`${servers.docs}/en/latest/glossary.html#term-job`}>job</a></p>`,
    );
    const link = container.querySelector<HTMLAnchorElement>('#rtl')!;
    await preview.show(link);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'content');
    expect(popup(preview).getAttribute('dir')).to.equal('rtl');
    // Within the room the arrow needs to point at a short link's middle.
    await until(
      () => Math.abs(popup(preview).getBoundingClientRect().right - link.getBoundingClientRect().right) <= 12,
      'aligned with the right edge',
    );
    expect(popup(preview).getBoundingClientRect().left).to.be.below(link.getBoundingClientRect().left);
    expect(inside(popup(preview).getBoundingClientRect(), viewport())).to.equal(true);
    await preview.hide();
  });

  it("writes an entry's signature as code and its field list's labels as text", async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p><a id="api" href=${`${servers.docs}/en/latest/api/scheduler.html#aurora.Scheduler.add_job`}>add_job</a></p>`,
    );
    await preview.show(container.querySelector<HTMLAnchorElement>('#api')!);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] .field-list dt'), 'a field list in the preview');
    const font = (selector: string) => getComputedStyle(part(preview, 'content').querySelector(selector)!).fontFamily;
    expect(font('dt.sig')).to.contain('monospace');
    expect(font('.field-list dt')).not.to.contain('monospace');
  });

  it("keeps its text's size whatever the page's root font size (Bootstrap 3 themes set html to 10px)", async () => {
    const root = document.documentElement.style;
    root.fontSize = '10px';
    document.body.style.fontSize = '14px';
    try {
      const { container, preview } = await page(
        servers.proxy,
        docsHost(),
        html`<p><a id="install" href=${`${servers.docs}/en/latest/installation.html`}>installing</a></p>`,
      );
      await preview.show(container.querySelector<HTMLAnchorElement>('#install')!);
      await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'preview content');
      // 0.92 of the widget's 16px (`--doclens-font-size`), not of the root's 10px.
      expect(Number.parseFloat(getComputedStyle(part(preview, 'content')).fontSize)).to.be.closeTo(14.72, 0.01);
    } finally {
      root.fontSize = '';
      document.body.style.fontSize = '';
    }
  });

  it("previews the page's opening, marked as the page, for a link to an anchor the page lacks", async () => {
    const { container, preview } = await page(
      servers.proxy,
      docsHost(),
      html`<p><a id="gone" href=${`${servers.docs}/en/latest/installation.html#using-the-old-installer`}>the old installer</a></p>`,
    );
    await preview.show(container.querySelector<HTMLAnchorElement>('#gone')!);
    await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'preview content');
    expect(preview.shadowRoot!.querySelector('[part~="unavailable"]')).to.equal(null);
    expect(part(preview, 'whole-page').textContent).to.contain('Section not found');
    expect(part(preview, 'title').textContent).to.equal('Installation');
    expect(part(preview, 'content').textContent!.trim().length).to.be.greaterThan(20);
  });

  describe('on pages cut from real documentation', () => {
    const realPage = (path: string) => `${servers.real.docs}/en/latest/${path}`;

    it("previews a [source] link as the definition's code, from its line to the next definition", async () => {
      const { container, preview } = await page(
        servers.real.proxy,
        new URL(servers.real.docs).host,
        html`<p><a id="source" href=${realPage('requests/_modules/requests/api.html#get')}>[source]</a></p>`,
      );
      await preview.show(container.querySelector<HTMLAnchorElement>('#source')!);
      await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] pre'), 'a code listing');
      const code = part(preview, 'content').querySelector('pre')!.textContent!;
      expect(code.startsWith('def get(url, params=None, **kwargs):')).to.equal(true);
      expect(code).to.contain('Sends a GET request.');
      expect(code).to.contain('return request("get", url, params=params, **kwargs)');
      // The listing's next definition and the viewcode labels are not part of it.
      expect(code).not.to.contain('def options');
      expect(part(preview, 'content').textContent).not.to.contain('[docs]');
      expect(getComputedStyle(part(preview, 'content').querySelector('pre')!).whiteSpace).to.match(/^pre/);
      // Code wider than the preview scrolls from the keyboard too (axe's scrollable-region-focusable, seen on Dask's).
      await expect(preview).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
    });

    it("lays out an entry's formulas as mathematics, where the page leaves them to its MathJax (SciPy's)", async () => {
      const { container, preview } = await page(
        servers.real.proxy,
        new URL(servers.real.docs).host,
        html`<p><a id="entry" href=${realPage(
          'scipy/reference/generated/scipy.spatial.transform.Rotation.align_vectors.html#scipy.spatial.transform.Rotation.align_vectors',
        )}>align_vectors</a></p>`,
      );
      await preview.show(container.querySelector<HTMLAnchorElement>('#entry')!);
      await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] math'), 'a formula');
      const content = part(preview, 'content');
      expect(content.textContent).not.to.match(/\\[([]/);
      const [matrix, loss] = content.querySelectorAll('math');
      expect(matrix!.textContent).to.equal('C');
      expect(loss!.getAttribute('display')).to.equal('block');
      expect(loss!.querySelector('msub')!.textContent).to.equal('wi');
      // Laid out as a formula: the fraction's numerator stands over its denominator, the sum's limits over and under it.
      const fraction = loss!.querySelector('mfrac')!;
      const [numerator, denominator] = [...fraction.children].map((part) => part.getBoundingClientRect());
      expect(numerator!.bottom).to.be.at.most(denominator!.top + 1);
      expect(loss!.querySelector('munderover')).to.not.equal(null);
      await expect(preview).shadowDom.to.be.accessible({ ignoredRules: ['color-contrast'] });
    });

    it("lays out LaTeX environments, in inline math or alone, as nbsphinx leaves them to MathJax (Jupyter's notebooks)", async () => {
      /** The formulas of the preview of `href`, once laid out. */
      const formulas = async (href: string) => {
        const { container, preview } = await page(
          servers.real.proxy,
          new URL(servers.real.docs).host,
          html`<p><a id="section" href=${realPage(href)}>section</a></p>`,
        );
        await preview.show(container.querySelector<HTMLAnchorElement>('#section')!);
        await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] math'), 'a formula');
        const content = part(preview, 'content');
        expect(content.textContent).not.to.contain('\\begin');
        const laidOut = [...content.querySelectorAll('math')];
        await preview.hide();
        container.remove();
        return laidOut;
      };
      // `\(\begin{align}…\end{align}\)`: three equations, one under the other.
      const [lorenz] = await formulas('notebook/Typesetting%20Equations.html#Display');
      expect(lorenz!.getAttribute('display')).to.equal('block');
      expect(lorenz!.querySelectorAll('mtr').length).to.equal(3);
      // An inline formula, then `\begin{equation}…\end{equation}` alone in its paragraph.
      const [euler, series] = await formulas('notebook/Working%20With%20Markdown%20Cells.html#LaTeX-equations');
      expect(euler!.getAttribute('display')).to.not.equal('block');
      expect(series!.getAttribute('display')).to.equal('block');
      expect(series!.querySelector('mfrac')).to.not.equal(null);
    });

    it("ends a field list's labels with one colon, written or not (Requests' older Sphinx wrote none)", async () => {
      /** A field list's first label as a reader sees it, with what CSS adds after it. */
      const label = async (proxy: string, docs: string, href: string) => {
        const { container, preview } = await page(proxy, new URL(docs).host, html`<p><a id="entry" href=${href}>entry</a></p>`);
        await preview.show(container.querySelector<HTMLAnchorElement>('#entry')!);
        await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] .field-list > dt'), 'a field list');
        const term = part(preview, 'content').querySelector('.field-list > dt')!;
        const after = getComputedStyle(term, '::after').content;
        await preview.hide();
        container.remove();
        return `${term.textContent}${after === 'none' ? '' : JSON.parse(after)}`;
      };
      expect(await label(servers.real.proxy, servers.real.docs, realPage('requests/api.html#requests.request'))).to.equal('Parameters:');
      const written = `${servers.docs}/en/latest/api/scheduler.html#aurora.Scheduler.add_job`;
      expect(await label(servers.proxy, servers.docs, written)).to.equal('Parameters:');
    });

    it("sets a parameter's type apart from its name, as the theme's CSS does (numpydoc's \"x : array_like\")", async () => {
      const { container, preview } = await page(
        servers.real.proxy,
        new URL(servers.real.docs).host,
        html`<p><a id="entry" href=${realPage('statsmodels/generated/statsmodels.tsa.seasonal.seasonal_decompose.html')}>decompose</a></p>`,
      );
      await preview.show(container.querySelector<HTMLAnchorElement>('#entry')!);
      await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] .classifier'), 'a parameter with its type');
      const type = part(preview, 'content').querySelector('.classifier')!;
      const mark = getComputedStyle(type, '::before');
      expect(`${type.previousElementSibling!.textContent}${JSON.parse(mark.content)}${type.textContent}`).to.equal('x:numpy:array_like');
      expect(Number.parseFloat(mark.marginLeft)).to.be.greaterThan(0);
    });

    it('previews an API entry with its signature and text, without its [source] and ¶ marks', async () => {
      const { container, preview } = await page(
        servers.real.proxy,
        new URL(servers.real.docs).host,
        html`<p><a id="entry" href=${realPage('requests/api.html#requests.get')}>requests.get</a></p>`,
      );
      await preview.show(container.querySelector<HTMLAnchorElement>('#entry')!);
      await until(() => !!preview.shadowRoot!.querySelector('[part~="content"]'), 'preview content');
      const text = `${part(preview, 'title').textContent} ${part(preview, 'content').textContent}`;
      expect(text).to.contain('requests.get(url, params=None, **kwargs)');
      expect(text).to.contain('Sends a GET request.');
      expect(text).not.to.contain('[source]');
      expect(text).not.to.contain('¶');
    });

    it("keeps the words of a table's cells whole: a Docutils footnote's label", async () => {
      const { container, preview } = await page(
        servers.real.proxy,
        new URL(servers.real.docs).host,
        html`<p><a id="note" href=${realPage('docutils/config.html#override')}>[5]</a></p>`,
      );
      await preview.show(container.querySelector<HTMLAnchorElement>('#note')!);
      await until(() => !!preview.shadowRoot!.querySelector('[part~="content"] td'), 'the footnote');
      const label = part(preview, 'content').querySelector('td')!;
      expect(label.textContent).to.equal('[5]');
      const range = document.createRange();
      range.selectNodeContents(label);
      expect(range.getClientRects().length).to.equal(1);
      expect(part(preview, 'content').textContent).to.contain('The overridden setting will automatically be set');
    });
  });
});
