import { css, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { mainContent } from './page.ts';
import { isPinned } from './pinned.ts';

/** The `.viewport` element `measureOffscreen` measures: the layout viewport, never seen nor hit. */
export const layoutViewportStyles = css`
  .viewport {
    position: fixed;
    inset: 0;
    visibility: hidden;
    pointer-events: none;
  }
`;

/** What a reader clicks, taps or tabs to. */
const CONTROLS =
  'a[href], button, input, select, textarea, summary, label, ' +
  '[role="button"], [role="link"], [role="tab"], [role="switch"], [role="checkbox"], [role="menuitem"], [tabindex]:not([tabindex="-1"])';
/** Distance between the points tested under a floating element: smaller than any usable control. */
const STEP = 16;

/**
 * Whether `element` is in a control that a floating element must leave free: one of the page's header,
 * navigation or footer, or one pinned to the viewport. Links in the main text scroll out from under it.
 */
function isPageControl(element: Element): boolean {
  // A theme's script makes other elements controls too (Read the Docs' menu icon): their pointer says so.
  const control = element.closest(CONTROLS) ?? (getComputedStyle(element).cursor === 'pointer' ? element : null);
  return !!control && (!mainContent().contains(control) || isPinned(control));
}

/** `start`, `end` and points every STEP pixels between them. */
function samples(start: number, end: number): number[] {
  const points = [];
  for (let point = start + 1; point < end - 1; point += STEP) points.push(point);
  points.push(end - 1);
  return points;
}

/** Whether the topmost thing under some point of `rect`, `own` aside, is a page control or another doclens element. */
function coversControl(rect: DOMRect, own: HTMLElement): boolean {
  // Hit tests pass through `own` (and its shadow tree, which inherits this) to what it covers.
  const before = own.style.pointerEvents;
  own.style.pointerEvents = 'none';
  try {
    return samples(rect.top, rect.bottom).some((y) =>
      samples(rect.left, rect.right).some((x) => {
        const below = document.elementFromPoint(x, y);
        return !!below && (below.localName.startsWith('doclens-') || isPageControl(below));
      }),
    );
  } finally {
    own.style.pointerEvents = before;
  }
}

/**
 * Whether the page paints over the middle of `rect`, above `own` (a theme's fixed navbar stacked higher):
 * the reader would see none of it there, and a tap would reach the page.
 */
function isCovered(rect: DOMRect, own: HTMLElement): boolean {
  return document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2) !== own;
}

const overlap = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Gives `host` the widths of the strips of the layout viewport (where fixed elements are placed, here
 * measured by `viewport`, a fixed element with `inset: 0`) that are off screen, as `--_outside-top`,
 * `-bottom`, `-start` and `-end` (sides of the host's writing direction): on a phone a page wider than the
 * screen widens the layout viewport,
 * and zooming in shows a part of it, so that its corners are not on screen.
 */
export function measureOffscreen(host: HTMLElement, viewport: Element): void {
  const visual = window.visualViewport;
  if (!visual) return;
  const layout = viewport.getBoundingClientRect();
  const left = visual.offsetLeft - layout.left;
  const right = layout.right - visual.offsetLeft - visual.width;
  const rtl = getComputedStyle(host).direction === 'rtl';
  const outside = {
    top: visual.offsetTop - layout.top,
    bottom: layout.bottom - visual.offsetTop - visual.height,
    start: rtl ? right : left,
    end: rtl ? left : right,
  };
  for (const [side, size] of Object.entries(outside)) host.style.setProperty(`--_outside-${side}`, `${Math.max(0, Math.round(size))}px`);
}

/**
 * Puts `element` (fixed, placed by its CSS from its `data-spot`) on the first of `spots` where it
 * covers no page control and none of the `avoid` rectangles, and nothing of the page covers it; returns that spot, or undefined (and the
 * first spot) when every one is taken.
 */
export function findClearSpot(element: HTMLElement, own: HTMLElement, spots: readonly string[], avoid: DOMRect[] = []): string | undefined {
  for (const spot of spots) {
    element.dataset.spot = spot;
    const rect = element.getBoundingClientRect();
    if (!avoid.some((other) => overlap(other, rect)) && !coversControl(rect, own) && !isCovered(rect, own)) return spot;
  }
  element.dataset.spot = spots[0];
  return undefined;
}

/**
 * Calls `arrange` once the page has stopped scrolling or resizing for a moment (moving while the
 * reader scrolls would make it jump), telling whether the viewport was resized, until the returned
 * function is called.
 */
export function whenLayoutSettles(arrange: (resized: boolean) => void): () => void {
  let timer = 0;
  let resized = false;
  const schedule = (event: Event) => {
    resized ||= event.type === 'resize';
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      arrange(resized);
      resized = false;
    }, 150);
  };
  // Zooming resizes the visual viewport, and moving a zoomed page scrolls it.
  const targets = [window, window.visualViewport].filter((target) => !!target);
  for (const target of targets) {
    target.addEventListener('scroll', schedule, { capture: true, passive: true });
    target.addEventListener('resize', schedule, { passive: true });
  }
  return () => {
    clearTimeout(timer);
    for (const target of targets) {
      target.removeEventListener('scroll', schedule, { capture: true });
      target.removeEventListener('resize', schedule);
    }
  };
}

/** Calls `arrange` once scrolling and resizing settle, while its host is in the document. */
export class LayoutSettledController implements ReactiveController {
  private stop?: () => void;

  constructor(
    host: ReactiveControllerHost,
    private readonly arrange: (resized: boolean) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.stop = whenLayoutSettles(this.arrange);
  }

  hostDisconnected(): void {
    this.stop?.();
  }
}
