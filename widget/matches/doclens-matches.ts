import { html, nothing, type TemplateResult } from 'lit';
import { query, state } from 'lit/decorators.js';
import { findClearSpot, LayoutSettledController, layoutViewportStyles, measureOffscreen } from '../shared/clear-spot.ts';
import { define, DoclensElement } from '../shared/base-element.ts';
import { isKeyTaken, isTextField } from '../shared/hotkeys.ts';
import { format } from '../shared/i18n.ts';
import { HIGHLIGHT_SELECTOR, removeHighlights } from '../shared/page.ts';
import { themeStyles } from '../shared/theme.ts';
import { matchesStyles } from './styles.ts';

/** Where the bar may sit, in order of preference: away from the switcher's bottom-end corner first. */
const BAR_SPOTS = ['bottom-start', 'top-end', 'top-start', 'bottom-end'] as const;

/**
 * A small floating bar for the searched words marked on the page (a search result's `?highlight=`):
 * "3 of 12", next and previous match (also Enter and Shift+Enter in the bar), starting from the
 * section the link leads to, and a button that removes the marks (Escape too). Shown only while the page has marks.
 *
 * @tag doclens-matches
 *
 * @event doclens-matches-step - Moved to a match; `detail: { index, total, mark }`.
 * @event doclens-matches-clear - The marks were removed.
 *
 * @csspart bar - The floating bar.
 * @csspart count - The "3 of 12" text.
 * @csspart previous - The previous-match button.
 * @csspart next - The next-match button.
 * @csspart clear - The "hide highlights" button.
 *
 * @cssproperty --doclens-color-background - Bar background.
 * @cssproperty --doclens-color-text - Text colour.
 * @cssproperty --doclens-color-accent - Outline of the current match.
 * @cssproperty --doclens-z-index - Stacking order.
 */
export class DoclensMatches extends DoclensElement {
  static override styles = [themeStyles, layoutViewportStyles, matchesStyles];

  @state() private marks: HTMLElement[] = [];
  /** The current match, or -1 before the first step. */
  @state() private index = -1;
  /** The match the first step goes to: the first in or after the section the reader chose. */
  private start = 0;

  @query('.bar') private bar?: HTMLElement;
  @query('.viewport') private viewport?: HTMLElement;

  constructor() {
    super();
    new LayoutSettledController(this, () => void this.arrange());
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.marks = [...document.querySelectorAll<HTMLElement>(HIGHLIGHT_SELECTOR)];
    this.start = Math.max(0, firstInSection(this.marks));
    // Capturing on window: pages cancel Escape (Sphinx's sphinx_highlight.js) or stop it.
    window.addEventListener('keydown', this.onEscape, { capture: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.onEscape, { capture: true });
  }

  /**
   * The reader's Escape hides the marks, unless typed in a field or another doclens control took it once
   * it went through the page (the search dialog, a preview, a menu).
   */
  private onEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !event.isTrusted || !this.marks.length || isTextField(event.composedPath()[0])) return;
    setTimeout(() => {
      if (!isKeyTaken(event)) this.clear();
    });
  };

  override firstUpdated(): void {
    void this.arrange();
  }

  /** How many matches there are, and which one is current (1-based; 0 before the first step). */
  get position(): { current: number; total: number } {
    return { current: this.index + 1, total: this.marks.length };
  }

  /** Moves to the next match (`1`) or the previous one (`-1`), wrapping around, and scrolls it into view. */
  step(direction: 1 | -1): void {
    const total = this.marks.length;
    if (!total) return;
    this.marks[this.index]?.removeAttribute('aria-current');
    // The first step goes from the section the reader chose: forward to its first match, back to the one before.
    const from = this.index < 0 ? this.start - (direction > 0 ? 1 : 0) : this.index;
    this.index = (from + direction + total) % total;
    const mark = this.marks[this.index]!;
    mark.setAttribute('aria-current', 'true');
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    mark.scrollIntoView({ block: 'center', behavior: reduced ? 'auto' : 'smooth' });
    this.emit('doclens-matches-step', { index: this.index, total, mark });
  }

  /** Removes the marks from the page; the bar hides. */
  clear(): void {
    removeHighlights(this.marks);
    this.marks = [];
    this.index = -1;
    this.emit('doclens-matches-clear', null);
  }

  private async arrange(): Promise<void> {
    await this.updateComplete;
    if (!this.bar || !this.viewport) return;
    measureOffscreen(this, this.viewport);
    // Nor over the matches in sight: a result's link scrolls its section, words marked, to where `top-end` sits.
    const inSight = this.marks.map((mark) => mark.getBoundingClientRect()).filter((box) => box.bottom > 0 && box.top < innerHeight);
    findClearSpot(this.bar, this, BAR_SPOTS, inSight);
  }

  /** Shift+Enter anywhere in the bar goes back; Enter on a step button is its click, elsewhere it goes on. */
  private onKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Enter') return;
    const button = event.target instanceof HTMLButtonElement ? event.target : undefined;
    if (button?.classList.contains('clear') || (button && !event.shiftKey)) return;
    event.preventDefault();
    this.step(event.shiftKey ? -1 : 1);
  }

  override render(): TemplateResult | typeof nothing {
    if (!this.marks.length) return nothing;
    const s = this.strings;
    const { current, total } = this.position;
    const count = current ? format(s.matchPosition, { current, total }) : format(total === 1 ? s.matchCountOne : s.matchCount, { total });
    return html`<div class="viewport"></div>
      <div class="bar" part="bar" role="toolbar" aria-label=${s.matchesLabel} @keydown=${this.onKeydown}>
        <span class="count" part="count" role="status">${count}</span>
        <button class="previous" part="previous" type="button" aria-label=${s.previousMatch} title=${s.previousMatch}
          @click=${() => this.step(-1)}>↑</button>
        <button class="next" part="next" type="button" aria-label=${s.nextMatch} title=${s.nextMatch}
          @click=${() => this.step(1)}>↓</button>
        <button class="clear" part="clear" type="button" aria-label=${s.hideMatches} title=${s.hideMatches}
          @click=${() => this.clear()}>✕</button>
      </div>`;
  }
}

/** The first of `marks` in or after the element the page's fragment names (-1 without one). */
function firstInSection(marks: HTMLElement[]): number {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return -1;
  return marks.findIndex((mark) => target.contains(mark) || !!(target.compareDocumentPosition(mark) & Node.DOCUMENT_POSITION_FOLLOWING));
}

define('doclens-matches', DoclensMatches);

declare global {
  interface HTMLElementTagNameMap {
    'doclens-matches': DoclensMatches;
  }
}
