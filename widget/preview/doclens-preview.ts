import { html, nothing, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { EmbedPreview } from '../../contract/index.ts';
import { type DataSource, ProxyRequestError } from '../shared/api.ts';
import { dataSource } from '../shared/data-source.ts';
import { HoverIntentController, type IntentTrigger } from '../shared/hover-intent.ts';
import { define, DoclensElement } from '../shared/base-element.ts';
import { inPageText } from '../shared/page.ts';
import { anchor } from '../shared/position.ts';
import { sanitizeContentWithMath, sanitizedContent } from '../shared/sanitize.ts';
import { themeStyles } from '../shared/theme.ts';
import { onReaderSettingsChange, readerSettings } from '../settings/store.ts';
import { layOutFormulas } from './math.ts';
import { contextLabel, isPage, linksToItself, OPT_OUT, previewTarget } from './preview-url.ts';
import { previewStyles } from './styles.ts';

type Phase = 'hidden' | 'loading' | 'ready' | 'error';

/** A section's answer and its content as it shows. */
interface Shown {
  preview: EmbedPreview;
  content: { html: string; blank: boolean };
}

/**
 * A section's content as it shows, sanitized, its formulas laid out; blank when it shows no text and no picture (a
 * theme's banner alone, left out).
 */
async function shownContent(html: string): Promise<{ html: string; blank: boolean }> {
  const content = sanitizedContent(html);
  const formulas = await layOutFormulas(content);
  const blank = !content.textContent?.trim() && !content.querySelector('img');
  const holder = document.createElement('div');
  holder.append(content);
  return { html: formulas ? sanitizeContentWithMath(holder.innerHTML) : holder.innerHTML, blank };
}
/** How long a preview that failed for a reason that may pass is shown as failed before it is asked again (ms). */
const FAILURE_KEPT = 2000;

/** With Alt, the key that goes from the link into its preview. */
const ENTER_KEY = 'ArrowDown';

function isSphinxPage(): boolean {
  return !!document.querySelector('script[src*="documentation_options.js"], script#documentation_options, #documentation_options');
}

/**
 * Whether a preview's HTML ends where its text was cut ("…"): a preview that shows a section's first blocks only (a
 * class's first three flags of many) says so after them, or it reads as the whole.
 */
const endsCut = (content: string) =>
  content
    .replace(/<[^>]*>/g, '')
    .trimEnd()
    .endsWith('…');

/**
 * Hover and focus previews of links to documentation sections, for every matching link on the page
 * (also those added later). On touch screens a first tap shows the preview with an "Open" action and
 * a second tap follows the link. From the focused link Tab goes on to the next link; Alt+ArrowDown
 * moves into the preview's links, Shift+Tab back, Escape closes it. The preview describes its link
 * (`aria-describedby`) and is no live region: moving the pointer reads nothing aloud. A reader who
 * turns previews off in the settings menu gets none, at once.
 *
 * @tag doclens-preview
 *
 * @event doclens-preview-show - A preview opened; `detail: { link, url }`.
 * @event doclens-preview-hide - The preview closed; `detail: { link }`.
 *
 * @csspart popup - The tooltip.
 * @csspart title - The section title.
 * @csspart content - The section's first blocks.
 * @csspart body - The scrolling area holding the title and the content.
 * @csspart badge - The project or version of a section from elsewhere than this page's, beside the title.
 * @csspart skeleton - The shimmering lines shown while the section loads.
 * @csspart unavailable - The "Preview unavailable" message, when the section cannot be had.
 * @csspart empty - "This section has no text", under the title of a section that has none of its own.
 * @csspart whole-page - Over a preview of a page's opening, where the link names a section the page lacks: says so.
 * @csspart cut - The "…" after a preview that shows the section's beginning only.
 * @csspart more - The "read more" link, or the "Open" action of a tapped preview (44 px high at least).
 * @csspart arrow - The arrow pointing at the link.
 *
 * @cssproperty --doclens-preview-max-width - Largest width of the tooltip (480px).
 * @cssproperty --doclens-preview-max-height - Largest height before it scrolls (360px).
 * @cssproperty --doclens-color-background - Tooltip background.
 * @cssproperty --doclens-color-text - Text colour.
 * @cssproperty --doclens-color-accent - Link colour.
 * @cssproperty --doclens-z-index - Stacking order.
 */
export class DoclensPreview extends DoclensElement {
  static override styles = [themeStyles, previewStyles];

  /** Base URL of the doclens proxy. */
  @property() proxy = '';
  /** Base URL of the files `doclens build` wrote: set, the element reads them instead of asking a proxy. */
  @property({ attribute: 'static' }) staticFiles = '';
  /** Links inside these containers get previews; unset, those in the main content the page's structure shows. */
  @property() selector?: string;
  /** Milliseconds the pointer rests on a link before the preview shows. */
  @property({ type: Number, attribute: 'show-delay' }) showDelay = 300;
  /** Milliseconds after the pointer leaves before it hides. */
  @property({ type: Number, attribute: 'hide-delay' }) hideDelay = 200;
  /** Hosts besides this page's whose links are documentation (space-separated, `host` or `host:port`). */
  @property() domains = '';
  /** `sphinx` for Sphinx's definition and glossary rules, `none` to turn them off; detected when unset. */
  @property() doctool?: string;
  /** Turns previews off without removing the element. */
  @property({ type: Boolean }) disabled = false;
  /** `off`: a tap follows the link at once, as without doclens. */
  @property() touch: 'on' | 'off' = 'on';

  @state() private phase: Phase = 'hidden';
  @state() private preview?: EmbedPreview;
  @state() private content = '';
  @state() private target?: HTMLAnchorElement;
  @state() private trigger: IntentTrigger = 'pointer';

  @query('.popup') private popup!: HTMLElement;
  @query('.arrow') private arrowElement!: HTMLElement;
  @query('.scroll') private scrollArea!: HTMLElement;

  private readonly cache = new Map<string, Promise<Shown>>();
  private readonly intent: HoverIntentController;
  private stopAutoUpdate?: () => void;
  private describedBy?: string | null;
  private keyShortcuts?: string | null;
  /** The reader's own switch (the settings menu), for every page of the site. */
  private readerWantsPreviews = true;
  private stopFollowingSettings?: () => void;

  constructor() {
    super();
    this.intent = new HoverIntentController(this, {
      showDelay: () => this.showDelay,
      hideDelay: () => this.hideDelay,
      settleDelay: 100,
      targetOf: (node) => this.linkOf(node),
      settle: (link) => void this.load(link).catch(() => undefined),
      show: (link, trigger) => void this.open(link, trigger),
      hide: () => this.close(),
      inPopup: (node) => node instanceof Node && (node === this || this.renderRoot.contains(node)),
      touch: () => this.touch !== 'off',
    });
  }

  override connectedCallback(): void {
    // Before the hover intent starts: it enters a link already under the pointer at once.
    this.readerWantsPreviews = readerSettings().previews;
    super.connectedCallback();
    if (!this.id) this.id = 'doclens-preview';
    document.addEventListener('keydown', this.onKeydown);
    this.stopFollowingSettings = onReaderSettingsChange((settings) => {
      this.readerWantsPreviews = settings.previews;
      if (!settings.previews) this.intent.close();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this.onKeydown);
    this.stopFollowingSettings?.();
    this.close();
  }

  /**
   * Tab goes from link to link, as without previews: the popup, at the end of the document, is out of
   * the way. Alt+ArrowDown on the link (its `aria-keyshortcuts`) goes into the preview's links; there
   * Shift+Tab from the first goes back to the link, and Tab from the last goes on from the link.
   */
  private onKeydown = (event: KeyboardEvent) => {
    const link = this.target;
    if (!link || this.phase === 'hidden') return;
    const stops = [...this.renderRoot.querySelectorAll<HTMLElement>('a[href], [tabindex="0"]')].filter((stop) => stop.tabIndex >= 0);
    const inside = this.shadowRoot?.activeElement;
    if (!stops.length) return;
    if (event.key === ENTER_KEY && event.altKey && document.activeElement === link) {
      event.preventDefault();
      stops[0]!.focus();
    } else if (event.key === 'Tab' && inside === stops[0] && event.shiftKey) {
      event.preventDefault();
      link.focus();
    } else if (event.key === 'Tab' && inside === stops.at(-1) && !event.shiftKey) {
      // No preventDefault: the browser's Tab then moves on from the link.
      link.focus();
    }
  };

  /** Shows the preview of `link` at once, if it previews. */
  async show(link: HTMLAnchorElement): Promise<void> {
    if (!this.previewUrl(link)) return;
    this.intent.current = link;
    await this.open(link, 'pointer');
  }

  /**
   * A tap on `link` the loader held while this code loaded: shows its preview as a first tap does. False when the link
   * does not preview on a tap (the loader then follows it).
   */
  tap(link: HTMLAnchorElement): boolean {
    if (this.touch === 'off' || !this.previewUrl(link)) return false;
    this.intent.tapped(link);
    return true;
  }

  /** Hides the preview shown, if any. */
  async hide(): Promise<void> {
    this.intent.close();
    await this.updateComplete;
  }

  /** The documentation URL a link points to, or undefined when it should not preview. */
  previewUrl(link: HTMLAnchorElement): string | undefined {
    if (
      this.disabled ||
      !this.readerWantsPreviews ||
      link.hasAttribute('download') ||
      link.closest(OPT_OUT) ||
      linksToItself(link) ||
      !this.inContent(link)
    )
      return undefined;
    const href = link.getAttribute('href');
    const url = href ? previewTarget(href, document.baseURI, window.location.href, this.domains.split(/\s+/).filter(Boolean)) : undefined;
    return url && this.source.mayPreview?.(url) !== false ? url : undefined;
  }

  /** Whether a link is in the containers `selector` names, or else in the page's own text its structure shows. */
  private inContent(link: HTMLAnchorElement): boolean {
    return this.selector ? !!link.closest(this.selector) : inPageText(link);
  }

  private linkOf(node: EventTarget | null): HTMLAnchorElement | undefined {
    if (!(node instanceof Element)) return undefined;
    const link = node.closest('a[href]');
    return link instanceof HTMLAnchorElement && this.previewUrl(link) ? link : undefined;
  }

  private get source(): DataSource {
    return dataSource(this.proxy, this.staticFiles);
  }

  private get effectiveDoctool(): string | undefined {
    if (this.doctool === 'none') return undefined;
    return this.doctool ?? (isSphinxPage() ? 'sphinx' : undefined);
  }

  /**
   * One request per target at a time, remembered for the page's life: a target that is not there is not asked for again
   * on every hover. Other failures (the network, a busy service) are asked again on a later hover, not by the same one
   * (the pointer's rest asks first, then the preview shows).
   */
  private load(link: HTMLAnchorElement): Promise<Shown> {
    const url = this.previewUrl(link)!;
    let pending = this.cache.get(url);
    if (!pending) {
      pending = this.source
        .preview(url, this.effectiveDoctool)
        .then(async (preview) => ({ preview, content: await shownContent(preview.content) }));
      pending.catch((error: unknown) => {
        if (!(error instanceof ProxyRequestError && error.kind === 'not_found')) setTimeout(() => this.cache.delete(url), FAILURE_KEPT);
      });
      this.cache.set(url, pending);
    }
    return pending;
  }

  private async open(link: HTMLAnchorElement, trigger: IntentTrigger): Promise<void> {
    if (this.target && this.target !== link) this.releaseLink();
    this.target = link;
    this.trigger = trigger;
    this.phase = 'loading';
    this.preview = undefined;
    this.describedBy = link.getAttribute('aria-describedby');
    this.keyShortcuts = link.getAttribute('aria-keyshortcuts');
    link.setAttribute('aria-describedby', [this.describedBy, this.id].filter(Boolean).join(' '));
    link.setAttribute('aria-keyshortcuts', [this.keyShortcuts, `Alt+${ENTER_KEY}`].filter(Boolean).join(' '));
    const pending = this.load(link);
    await this.updateComplete;
    if (!this.popup.matches(':popover-open')) this.popup.showPopover();
    this.stopAutoUpdate?.();
    this.stopAutoUpdate = anchor(link, this.popup, { gap: 10, arrow: this.arrowElement, beside: true, placed: () => this.placed() });
    this.emit('doclens-preview-show', { link, url: this.previewUrl(link) });
    try {
      const { preview, content } = await pending;
      // The reader may have moved on while it loaded: a late answer shows nothing.
      if (this.target !== link) return;
      this.preview = preview;
      // A title over nothing (an API page whose build left out its entries) says so rather than showing an empty card.
      this.content = content.blank ? '' : content.html;
      // A page with no title and no text of its own has nothing to preview.
      this.phase = preview.title || !content.blank ? 'ready' : 'error';
    } catch {
      if (this.target !== link) return;
      if (this.previewUrl(link)) {
        this.phase = 'error';
        return;
      }
      // The static site's files, read meanwhile, show the link leads off its pages: no preview, as for any such
      // link, and a tap on it (the first on a page, before they are read) follows it.
      this.intent.close();
      if (trigger === 'touch') link.click();
    }
  }

  private placed(): void {
    this.popup.classList.add('visible');
    this.keyboardScroll();
  }

  /**
   * Text that scrolls can be scrolled from the keyboard too, as soon as it is there: the preview's body,
   * and code or a table wider than the preview (Dask's).
   */
  private keyboardScroll(): void {
    this.scrollArea.tabIndex = this.scrollArea.scrollHeight > this.scrollArea.clientHeight ? 0 : -1;
    for (const wide of this.renderRoot.querySelectorAll<HTMLElement>('.content pre, .content table'))
      wide.tabIndex = wide.scrollWidth > wide.clientWidth || wide.scrollHeight > wide.clientHeight ? 0 : -1;
  }

  private releaseLink(): void {
    const link = this.target;
    if (!link) return;
    for (const [name, value] of [
      ['aria-describedby', this.describedBy],
      ['aria-keyshortcuts', this.keyShortcuts],
    ] as const)
      if (value) link.setAttribute(name, value);
      else link.removeAttribute(name);
  }

  private close(): void {
    const link = this.target;
    if (!link) return;
    this.stopAutoUpdate?.();
    this.stopAutoUpdate = undefined;
    this.releaseLink();
    this.target = undefined;
    this.phase = 'hidden';
    if (this.popup?.matches(':popover-open')) this.popup.hidePopover();
    this.emit('doclens-preview-hide', { link });
  }

  override updated(): void {
    if (this.phase === 'hidden') this.popup?.classList.remove('visible');
    else this.keyboardScroll();
  }

  override render(): TemplateResult {
    const direction = this.target ? getComputedStyle(this.target).direction : 'ltr';
    return html`<div
      class="popup"
      part="popup"
      popover="manual"
      role="tooltip"
      dir=${direction}
      @pointerenter=${() => this.intent.popupEntered()}
      @pointerleave=${(event: PointerEvent) => event.pointerType !== 'touch' && this.intent.popupLeft()}
    >
      <span class="arrow" part="arrow"></span>
      <div class="scroll" part="body">${this.renderContent()}</div>
      ${this.renderMore()}
    </div>`;
  }

  private renderContent(): unknown {
    const s = this.strings;
    if (this.phase === 'loading') {
      return html`<div class="skeleton" part="skeleton" aria-busy="true"
        aria-label=${s.previewLoading}><span></span><span></span><span></span></div>`;
    }
    if (this.phase === 'error') return html`<p class="unavailable" part="unavailable">${s.previewUnavailable}</p>`;
    if (this.phase !== 'ready' || !this.preview) return nothing;
    // Another project or version than this page's says which.
    const label = contextLabel(this.preview.url, window.location.href);
    return html`
      ${
        this.preview.missing_fragment
          ? html`<p class="whole-page" part="whole-page">${
              isPage(this.preview.url, window.location.href) ? s.previewMissingHere : s.previewWholePage
            }</p>`
          : nothing
      }
      ${
        this.preview.title || label
          ? html`<header>${
              this.preview.title
                ? html`<span class="title"
            part="title">${this.preview.title}</span>`
                : nothing
            }${
              label
                ? html`<span class="badge"
              part="badge">${label}</span>`
                : nothing
            }</header>`
          : nothing
      }
      ${
        this.content
          ? html`<div class="content" part="content">${unsafeHTML(this.content)}</div>${
              this.preview.truncated && !endsCut(this.content) ? html`<p class="cut" part="cut" aria-hidden="true">…</p>` : nothing
            }`
          : html`<p class="unavailable" part="empty">${s.previewNoText}</p>`
      }
    `;
  }

  /** Outside the scrolling part, so that it is never below its fold. A tapped preview offers its link at once. */
  private renderMore(): unknown {
    if (this.trigger === 'touch' && this.target && this.phase !== 'hidden') {
      return html`<footer class="tapped"><a class="more" part="more" href=${this.target.href}>${this.strings.openPreviewed} →</a></footer>`;
    }
    if (this.phase !== 'ready' || !this.preview || !/^https?:\/\//i.test(this.preview.url)) return nothing;
    return html`<footer><a class="more" part="more" href=${this.preview.url}>${this.strings.readMore} →</a></footer>`;
  }
}

define('doclens-preview', DoclensPreview);

declare global {
  interface HTMLElementTagNameMap {
    'doclens-preview': DoclensPreview;
  }
}
