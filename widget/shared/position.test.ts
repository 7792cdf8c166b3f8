import { expect, fixture, html } from '@open-wc/testing';
import { anchor } from './position.ts';

const PADDING = 8;
const OFFSET = 10;

interface Placed {
  floating: HTMLElement;
  arrow: HTMLElement;
  link: HTMLAnchorElement;
  stop: () => void;
}

/**
 * An inline link in a paragraph at `linkStyle` and a fixed floating box of `height` px (with an arrow) anchored
 * to it; resolves once placed.
 */
async function place(linkStyle: string, height: number, { direction = 'ltr', text = 'a link', beside = false } = {}): Promise<Placed> {
  const container = await fixture<HTMLDivElement>(html`<div>
    <p style="position: absolute; margin: 0; ${linkStyle}"><a href="#there">${text}</a></p>
    <div class="floating" dir=${direction}
      style="position: fixed; top: 0; left: 0; width: 200px; height: ${height}px; max-height: var(--_available-height)">
      <span class="arrow" style="position: absolute; width: 10px; height: 10px"></span>
    </div>
  </div>`);
  const link = container.querySelector('a')!;
  const floating = container.querySelector<HTMLElement>('.floating')!;
  const arrow = container.querySelector<HTMLElement>('.arrow')!;
  let stop = () => {};
  await new Promise<void>((resolve) => {
    stop = anchor(link, floating, { gap: 10, arrow, beside, placed: resolve });
  });
  return { floating, arrow, link, stop };
}

const box = (element: Element) => element.getBoundingClientRect();

describe('anchor (floating-ui placement of the preview)', () => {
  const placed: Placed[] = [];
  const track = (result: Placed) => {
    placed.push(result);
    return result;
  };
  afterEach(() => {
    for (const result of placed.splice(0)) result.stop();
  });

  it('puts the box under the link, aligned with its start edge, and gives the room below to CSS', async () => {
    const { floating, arrow, link } = track(await place('top: 40px; left: 100px', 120));
    expect(floating.dataset.side).to.equal('bottom');
    expect(box(floating).top).to.be.closeTo(box(link).bottom + OFFSET, 1);
    expect(box(floating).left).to.be.closeTo(box(link).left, 1);
    const room = window.innerHeight - (box(link).bottom + OFFSET) - PADDING;
    expect(parseFloat(floating.style.getPropertyValue('--_available-height'))).to.be.closeTo(room, 1);
    // The arrow stands over the link.
    const arrowCentre = box(arrow).left + box(arrow).width / 2;
    expect(arrowCentre).to.be.within(box(link).left, box(link).right);
  });

  it('flips above a link near the bottom edge when there is more room there, and limits its height to that room', async () => {
    const { floating, link } = track(await place(`top: ${window.innerHeight - 60}px; left: 100px`, 2000));
    expect(floating.dataset.side).to.equal('top');
    const room = box(link).top - OFFSET - PADDING;
    expect(parseFloat(floating.style.getPropertyValue('--_available-height'))).to.be.closeTo(room, 1);
    expect(box(floating).height).to.be.closeTo(room, 1);
    expect(box(floating).top).to.be.closeTo(PADDING, 1);
    expect(box(floating).bottom).to.be.closeTo(box(link).top - OFFSET, 1);
  });

  it('stays under a link near the bottom when there is more room below, however little', async () => {
    const { floating, link } = track(await place(`top: ${Math.round(window.innerHeight / 2) - 40}px; left: 100px`, 2000));
    expect(floating.dataset.side).to.equal('bottom');
    expect(box(floating).bottom).to.be.closeTo(window.innerHeight - PADDING, 1);
    expect(box(floating).top).to.be.closeTo(box(link).bottom + OFFSET, 1);
  });

  it('shifts inside the viewport at its right and left edges', async () => {
    const right = track(await place('top: 40px; right: 0', 80));
    expect(box(right.floating).right).to.be.closeTo(window.innerWidth - PADDING, 1);
    const left = track(await place('top: 200px; left: 0', 80, { direction: 'rtl' }));
    expect(box(left.floating).left).to.be.closeTo(PADDING, 1);
  });

  it('aligns a right-to-left box with the right edge of the link', async () => {
    const { floating, link } = track(await place('top: 40px; left: 300px', 80, { direction: 'rtl' }));
    expect(box(floating).right).to.be.closeTo(box(link).right, 1);
  });

  it('points at the first line of a link wrapped over two', async () => {
    const { floating, link } = track(
      await place('top: 40px; left: 100px; width: 120px', 80, { text: 'a link long enough to wrap over lines' }),
    );
    const lines = link.getClientRects();
    expect(lines.length).to.be.greaterThan(1);
    expect(box(floating).top).to.be.closeTo(lines[0]!.bottom + OFFSET, 1);
  });

  it('follows the link when it moves', async () => {
    const { floating, link } = track(await place('top: 40px; left: 100px', 80));
    link.parentElement!.style.top = '140px';
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(box(floating).top).to.be.closeTo(box(link).bottom + OFFSET, 1);
  });

  const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

  it('moves above when its content grows past the room below, instead of squeezing into the room it first had', async () => {
    // A preview shows its loading lines first, then a section of 300 px, for a link low in the window.
    const { floating, link } = track(await place(`top: ${window.innerHeight - 160}px; left: 100px`, 40));
    expect(floating.dataset.side).to.equal('bottom');
    floating.style.height = '300px';
    await frames();
    await frames();
    expect(floating.dataset.side).to.equal('top');
    expect(box(floating).height).to.be.closeTo(300, 1);
    expect(box(floating).bottom).to.be.closeTo(box(link).top - OFFSET, 1);
  });

  it('goes beside the link when neither below nor above holds it whole, and stays on screen', async () => {
    const tall = window.innerHeight - 120;
    const { floating, link } = track(
      await place(`top: ${Math.round(window.innerHeight / 2)}px; left: 100px`, tall, { beside: true, text: 'link' }),
    );
    expect(floating.dataset.side).to.equal('right');
    expect(box(floating).height).to.be.closeTo(tall, 1);
    expect(box(floating).left).to.be.closeTo(box(link).right + OFFSET, 1);
    expect(box(floating).top).to.be.at.least(PADDING - 1);
    expect(box(floating).bottom).to.be.at.most(window.innerHeight - PADDING + 1);
  });
});
