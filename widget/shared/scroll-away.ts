import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How far the reader scrolls down through the text, past its top, before a floating control steps out of the way. */
const AWAY_AFTER = 48;

/**
 * A floating control that steps out of the reader's way while they scroll down through the text, which it would cover on
 * a phone, and is back as soon as they scroll up or reach the top: the host has `data-scrolled-away` meanwhile (its CSS
 * hides it). Never while it holds focus. The page's own scrolling box counts as the window does (themes that scroll
 * their main column).
 */
export class ScrollAwayController implements ReactiveController {
  private readonly lastTop = new WeakMap<EventTarget, number>();
  private down = 0;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly applies: () => boolean,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    // A box's first scroll says nothing of its way but the page's, which the reader may have scrolled already.
    const page = document.scrollingElement;
    if (page) this.lastTop.set(page, page.scrollTop);
    // Capturing on the document: a box's scroll events do not bubble.
    document.addEventListener('scroll', this.onScroll, { capture: true, passive: true });
    // A page opened at a target (a search result's section, a preview's "Open") is read there: out of the way from the
    // start, not over the heading the reader was sent to, until they scroll up.
    requestAnimationFrame(() => {
      const landed = window.location.hash.length > 1 && (document.scrollingElement?.scrollTop ?? 0) > AWAY_AFTER;
      // Taken out of the page within that frame, it keeps no mark to come back with.
      if (landed && this.host.isConnected && this.applies() && !this.host.matches(':focus-within')) this.away(true);
    });
  }

  hostDisconnected(): void {
    document.removeEventListener('scroll', this.onScroll, { capture: true });
    this.away(false);
  }

  private onScroll = (event: Event): void => {
    const box = event.target instanceof Element ? event.target : document.scrollingElement;
    if (!box || this.host.contains(box)) return;
    const top = box.scrollTop;
    const moved = top - (this.lastTop.get(box) ?? top);
    this.lastTop.set(box, top);
    // Sideways (a wide listing), or a box's first scroll: no way told.
    if (moved === 0) return;
    if (!this.applies() || this.host.matches(':focus-within') || top <= AWAY_AFTER || moved < 0) {
      this.down = 0;
      this.away(false);
      return;
    }
    this.down += moved;
    if (this.down > AWAY_AFTER) this.away(true);
  };

  private away(away: boolean): void {
    if (this.host.hasAttribute('data-scrolled-away') !== away) this.host.toggleAttribute('data-scrolled-away', away);
  }
}
