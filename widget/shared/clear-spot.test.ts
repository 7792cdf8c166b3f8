import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../search/doclens-search.ts';
import '../versions/doclens-versions.ts';
import { servers, until } from '../test-support.ts';

const switcherOf = (versions: Element) => versions.shadowRoot!.querySelector<HTMLElement>('[part~="switcher"]');
const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('floating doclens elements on a phone', () => {
  afterEach(() => setViewport({ width: 800, height: 600 }));

  it("take corners where they cover neither the theme's controls nor each other", async () => {
    await setViewport({ width: 390, height: 844 });
    const container = await fixture<HTMLDivElement>(html`<div>
      <header
        style="position: fixed; inset: 0 0 auto 0; height: 48px; display: flex; justify-content: space-between; align-items: center;
          background: #eee"
      >
        <button id="menu" aria-label="Menu">☰</button><button id="theme" aria-label="Dark mode">◐</button>
      </header>
      <div role="main" style="padding-top: 60px"><p><a href="#text">A link in the text</a> scrolls away from under them.</p></div>
      <doclens-search proxy=${servers.proxy} floating></doclens-search>
      <doclens-versions proxy=${servers.proxy} page-url=${`${servers.docs}/en/latest/installation.html`}
        placement="floating"></doclens-versions>
    </div>`);
    const search = container.querySelector('doclens-search')!;
    const versions = container.querySelector('doclens-versions')!;
    await until(() => !!switcherOf(versions)?.dataset.spot, 'switcher placed');
    expect(search.dataset.spot).to.equal('bottom-start');
    const ours = [search.getBoundingClientRect(), switcherOf(versions)!.getBoundingClientRect()];
    expect(overlap(ours[0]!, ours[1]!), 'trigger and switcher apart').to.equal(false);
    for (const control of container.querySelectorAll('header button')) {
      const box = control.getBoundingClientRect();
      expect(
        ours.some((rect) => overlap(rect, box)),
        `${control.id} left free`,
      ).to.equal(false);
    }
  });

  it("leave a corner that the theme's fixed navbar paints over, stacked above them (Dask's inner pages)", async () => {
    await setViewport({ width: 390, height: 844 });
    // The navbar's controls are at its end; its start is empty, but it is drawn over whatever is there.
    const container = await fixture<HTMLDivElement>(html`<div>
      <nav style="position: fixed; inset: 0 0 auto 0; height: 64px; z-index: 2147483647; display: flex; justify-content: flex-end;
        background: #fff">
        <button id="toggle" aria-label="Toggle navigation">☰</button>
      </nav>
      <div role="main" style="padding-top: 70px"><p>Text of the page.</p></div>
      <doclens-search proxy=${servers.proxy} floating></doclens-search>
    </div>`);
    const search = container.querySelector('doclens-search')!;
    await until(() => !!search.dataset.spot, 'trigger placed');
    const box = search.getBoundingClientRect();
    expect(search.dataset.spot).to.match(/^bottom/);
    expect(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)).to.equal(search);
  });
});
