import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { property, queryAll, state } from 'lit/decorators.js';
import type { ContextTranslation, ContextVersion, PageContext } from '../../contract/index.ts';
import { findClearSpot, layoutViewportStyles, measureOffscreen, whenLayoutSettles } from '../shared/clear-spot.ts';
import { keepKeysInside } from '../shared/hotkeys.ts';
import { moveInMenu } from '../shared/menu-keys.ts';
import { format, languageName, languageOf, stringsFor, type Strings } from '../shared/i18n.ts';
import { ColorSchemeController, themeStyles } from '../shared/theme.ts';
import '../settings/doclens-settings.ts';
import type { NoticedVersion } from '../settings/doclens-settings.ts';
import { changeReaderSettings, isNoticeDismissed, onReaderSettingsChange, readerSettings, setNoticeDismissed, type ReaderSettings } from '../settings/store.ts';
import { pageContextOf } from './page-context.ts';
import { versionsStyles } from './styles.ts';

type Target = ContextVersion | ContextTranslation;

const DOWNLOAD_LABELS: Record<string, string> = { pdf: 'PDF', htmlzip: 'HTML (zip)', epub: 'EPUB' };
/** Corners of the floating switcher and edges of the notice, in order of preference (the first is where CSS puts them unless told). */
const SWITCHER_SPOTS = ['bottom-end', 'bottom-start', 'top-end', 'top-start'] as const;
const NOTICE_SPOTS = ['top', 'bottom', 'bottom-end', 'top-end', 'bottom-start', 'top-start'] as const;
/** The fragment the switcher adds when it leads to a start page because the page is missing there. */
const LANDED_MARKER = '#doclens-page-missing';

/**
 * The version and language switcher: goes to the same page in another version or translation, or to
 * that version's root when the page does not exist there.
 *
 * @tag doclens-versions
 *
 * @event doclens-versions-select - A version or language was chosen; `detail: { kind, slug, url }`. Cancel it to navigate yourself.
 *
 * @csspart toggle - The button showing the current version and language.
 * @csspart menu - The menu.
 * @csspart item - A version, language or download entry.
 * @csspart notice - The old or development version notice.
 * @csspart collapse - The button that folds the floating switcher into a badge.
 * @csspart badge - The folded switcher.
 * @csspart notice-badge - The notice, folded where it would cover the page's own controls.
 * @csspart settings - The button of the reader's settings menu (`<doclens-settings>`), beside the toggle.
 * @csspart settings-menu - That menu.
 * @csspart setting - One of its switches.
 *
 * @cssproperty --doclens-color-background - Menu background.
 * @cssproperty --doclens-color-accent - The current entry and focus rings.
 * @cssproperty --doclens-z-index - Stacking order of the floating flyout.
 */
export class DoclensVersions extends LitElement {
  static override styles = [themeStyles, layoutViewportStyles, versionsStyles];

  @property() proxy = '';
  @property() project?: string;
  @property() version?: string;
  /** The page whose versions are listed (this page by default; set it in single-page apps). */
  @property({ attribute: 'page-url' }) pageUrl?: string;
  /** `floating` (a flyout in the corner) or `inline` (in the theme's sidebar). */
  @property({ reflect: true }) placement: 'floating' | 'inline' = 'floating';
  /** Which notice to show: `old` versions, `dev` (development) versions, `all`, or `none`. */
  @property() notice: 'old' | 'dev' | 'all' | 'none' = 'old';
  @property({ type: Boolean, reflect: true }) open = false;

  @state() private context?: PageContext;
  @state() private noticeDismissed = false;
  /** The reader folded the floating switcher into a badge (a reader's setting, remembered for the site). */
  @state() private collapsed = false;
  /** No corner is free of the page's controls: shown as a badge until the reader opens it. */
  @state() private crowded = false;
  /** No edge is free for the notice: folded into a badge beside the switcher. */
  @state() private noticeFolded = false;
  /** The reader opened the folded notice. */
  @state() private noticeUnfolded = false;
  /** The switcher of the previous page led here because the page read there is missing in this version. */
  @state() private landedOnStart = false;

  @queryAll('[role="menu"] a') private items!: NodeListOf<HTMLAnchorElement>;

  private strings: Strings = stringsFor('en');
  private stopFollowing?: () => void;
  private stopFollowingSettings?: () => void;
  private focusAfterFold = false;

  constructor() {
    super();
    new ColorSchemeController(this);
    // The menu's arrows, Enter and Escape are its own: Sphinx pages may turn arrows into page turns.
    keepKeysInside(this, () => true);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.strings = stringsFor(languageOf(this));
    this.takeLandedMarker();
    document.addEventListener('pointerdown', this.onOutside);
    document.addEventListener('doclens-search-close', this.onUncovered);
    this.stopFollowing = whenLayoutSettles((resized) => void this.arrange(resized));
    this.stopFollowingSettings = onReaderSettingsChange((settings) => void this.applySettings(settings));
    void this.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.onOutside);
    document.removeEventListener('doclens-search-close', this.onUncovered);
    this.stopFollowing?.();
    this.stopFollowingSettings?.();
  }

  /** Loads the page context for the current page. */
  async refresh(): Promise<void> {
    try {
      this.context = await pageContextOf(this.proxy, this.pageUrl, this.project, this.version);
      const settings = readerSettings();
      this.noticeDismissed = this.isDismissed(settings);
      this.collapsed = settings.switcherCollapsed;
      await this.arrange(true);
    } catch {
      // Without data there is nothing to switch to: the switcher stays out of the way.
      this.context = undefined;
    }
  }

  async show(focus: 'current' | 'first' | 'last' = 'current'): Promise<void> {
    this.open = true;
    await this.updateComplete;
    const items = [...this.items];
    const current = items.find((item) => item.getAttribute('aria-checked') === 'true');
    (focus === 'last' ? items[items.length - 1] : focus === 'first' ? items[0] : (current ?? items[0]))?.focus();
  }

  async hide(returnFocus = true): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.updateComplete;
    if (returnFocus) this.renderRoot.querySelector<HTMLButtonElement>('.toggle')?.focus();
  }

  /** What was arranged under the search dialog (a setting changed there) found no free spot: it is placed again once the page is seen. */
  private onUncovered = () => void this.arrange(true);

  private onOutside = (event: PointerEvent) => {
    if (this.open && !event.composedPath().includes(this)) void this.hide(false);
  };

  private onToggleKeydown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      void this.show(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  private onMenuKeydown = (event: KeyboardEvent) => {
    const items = [...this.items];
    const focused = this.renderRoot.querySelector<HTMLAnchorElement>(':focus');
    if (moveInMenu(event, items, focused)) return;
    const index = items.indexOf(focused!);
    if (event.key === 'Escape') {
      event.preventDefault();
      void this.hide();
    } else if (event.key === 'Tab') void this.hide(false);
    else if (event.key === ' ') {
      event.preventDefault();
      items[index]?.click();
    } else if (event.key.length === 1 && /\S/.test(event.key)) {
      const start = index + 1;
      const match = [...items.slice(start), ...items.slice(0, start)].find((item) => item.textContent?.trim().toLowerCase().startsWith(event.key.toLowerCase()));
      match?.focus();
    }
  };

  /** The same page there, or that version's root when the page is missing (or cannot be confirmed). */
  private async destination(target: Target): Promise<string> {
    if (target.exists === true) return target.url;
    if (target.exists === false) return target.root_url;
    try {
      const url = new URL(target.url);
      if (url.origin !== window.location.origin) return target.url;
      const response = await fetch(url, { method: 'HEAD', credentials: 'same-origin' });
      return response.ok ? target.url : target.root_url;
    } catch {
      return target.url;
    }
  }

  private async choose(event: MouseEvent, kind: 'version' | 'language', target: Target): Promise<void> {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    event.preventDefault();
    const url = await this.destination(target);
    const select = new CustomEvent('doclens-versions-select', { bubbles: true, composed: true, cancelable: true, detail: { kind, slug: target.slug, url } });
    if (!this.dispatchEvent(select)) return;
    // The section the reader is on is kept when the page exists there; otherwise the start page is told why it was reached.
    window.location.assign(url === target.url ? url + window.location.hash : url + LANDED_MARKER);
  }

  /** Reads, then removes, the marker of a switch that landed on this start page, so that a reload or a shared link does not repeat the notice. */
  private takeLandedMarker(): void {
    if (window.location.hash !== LANDED_MARKER) return;
    this.landedOnStart = true;
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
  }

  private isDismissed(settings: ReaderSettings): boolean {
    return !!this.context && isNoticeDismissed(settings, this.context.project.slug, this.context.version.slug);
  }

  /** The version whose notice this switcher shows, or would had the reader not dismissed it: the settings menu offers it back. */
  get noticeVersion(): NoticedVersion | undefined {
    const context = this.context;
    const kind = context && this.noticeKind(context);
    return kind ? { project: context.project.slug, version: context.version.slug, name: context.version.verbose_name, kind } : undefined;
  }

  private dismissNotice = () => {
    // The landed notice is for this arrival only; the old-version notice is dismissed for good.
    if (this.landedOnStart) {
      this.landedOnStart = false;
      return;
    }
    if (this.context) setNoticeDismissed(this.context.project.slug, this.context.version.slug, true);
  };

  /** Folds the floating switcher into a badge, or opens it again, for this site from now on. */
  private setCollapsed(collapsed: boolean): void {
    // Focus follows the reader's own fold to the badge or the toggle.
    this.focusAfterFold = true;
    // A badge shown for want of room opens without changing the reader's setting.
    if (collapsed === this.collapsed) void this.fold(collapsed);
    else changeReaderSettings({ switcherCollapsed: collapsed });
  }

  /** A setting changed (here, in the settings menu, or in another tab): the switcher follows at once. */
  private async applySettings(settings: ReaderSettings): Promise<void> {
    const dismissed = this.isDismissed(settings);
    const noticeChanged = dismissed !== this.noticeDismissed;
    this.noticeDismissed = dismissed;
    if (settings.switcherCollapsed !== this.collapsed) await this.fold(settings.switcherCollapsed);
    // A notice shown again takes an edge free of the page's controls.
    else if (noticeChanged) await this.arrange(true);
  }

  private async fold(collapsed: boolean): Promise<void> {
    // Focus moves with a fold made here (a button, this switcher's settings menu), not with one made elsewhere.
    const focused = this.focusAfterFold || this.matches(':focus-within');
    this.focusAfterFold = false;
    await this.hide(false);
    this.collapsed = collapsed;
    this.crowded = false;
    await this.updateComplete;
    await this.arrange(false);
    if (focused) this.renderRoot.querySelector<HTMLButtonElement>(collapsed ? '.badge' : '.toggle')?.focus();
  }

  /**
   * Puts the floating switcher in a corner, and the notice on an edge, where they cover none of the
   * page's own controls (a theme's menu button on a phone) nor each other; what finds no room is
   * folded into a badge. `fresh` tries everything again (after loading or resizing); otherwise only
   * what covers something moves.
   */
  private async arrange(fresh: boolean): Promise<void> {
    if (this.placement !== 'floating' || this.open || !this.context) return;
    if (fresh) {
      this.crowded = false;
      this.noticeFolded = false;
    }
    await this.updateComplete;
    const switcher = this.renderRoot.querySelector<HTMLElement>('.switcher');
    const viewport = this.renderRoot.querySelector('.viewport');
    if (!switcher || !viewport) return;
    measureOffscreen(this, viewport);
    if (!findClearSpot(switcher, this, SWITCHER_SPOTS) && !this.collapsed && !this.crowded && fresh) {
      this.crowded = true;
      await this.updateComplete;
      findClearSpot(switcher, this, SWITCHER_SPOTS);
    }
    const notice = this.renderRoot.querySelector<HTMLElement>('.notice');
    if (notice && !this.noticeUnfolded) this.noticeFolded = !findClearSpot(notice, this, NOTICE_SPOTS, [switcher.getBoundingClientRect()]);
  }

  override render(): TemplateResult | typeof nothing {
    const context = this.context;
    if (!context) return nothing;
    const s = this.strings;
    const current = context.translations.find((translation) => translation.current)?.language ?? context.project.language;
    const language = { code: current.code, name: this.languageName(current) };
    // Download URLs are rendered as links: web addresses only.
    const downloads = Object.entries(context.versions.find((version) => version.current)?.downloads ?? {}).filter(([, url]) => /^https?:\/\//i.test(url ?? ''));
    const label = format(s.versionsLabel, { version: context.version.verbose_name, language: language.name });
    const badge = this.placement === 'floating' && (this.collapsed || this.crowded);
    return html`
      ${this.placement === 'floating' ? html`<div class="viewport" aria-hidden="true"></div>` : nothing}
      ${this.noticeFolded && !this.noticeUnfolded ? nothing : this.renderNotice(context, s)}
      <div class="switcher">
        ${this.noticeFolded && !this.noticeUnfolded ? this.renderNoticeBadge(context, s) : nothing}
        ${badge
          ? html`<button class="badge" part="badge" type="button" aria-label=${format(s.showSwitcher, { version: context.version.verbose_name, language: language.name })} @click=${() => this.setCollapsed(false)}>
              ${context.version.verbose_name}
            </button>`
          : this.renderToggle(context, label, language.code)}
        <div role="menu" id="menu" part="menu" aria-label=${s.versions} ?hidden=${!this.open || badge} @keydown=${this.onMenuKeydown}>
          <div role="group" aria-labelledby="versions-label">
            <div class="group-label" id="versions-label">${s.versions}</div>
            ${context.versions.map((version) => this.renderItem('version', version, version.verbose_name, this.versionKind(version, context)))}
          </div>
          ${context.translations.length > 1
            ? html`<div role="group" aria-labelledby="languages-label">
                <div class="group-label" id="languages-label">${s.languages}</div>
                ${context.translations.map((translation) => this.renderItem('language', translation, this.languageName(translation.language), translation.language.code))}
              </div>`
            : nothing}
          ${downloads.length
            ? html`<div role="group" aria-labelledby="downloads-label">
                <div class="group-label" id="downloads-label">${s.downloads}</div>
                ${downloads.map(([kind, url]) => html`<a role="menuitem" part="item" tabindex="-1" href=${url}>${DOWNLOAD_LABELS[kind] ?? kind}</a>`)}
              </div>`
            : nothing}
        </div>
      </div>
    `;
  }

  private renderToggle(context: PageContext, label: string, languageCode: string): TemplateResult {
    return html`<button
        class="toggle"
        part="toggle"
        type="button"
        aria-haspopup="menu"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="menu"
        @click=${() => (this.open ? void this.hide() : void this.show())}
        @keydown=${this.onToggleKeydown}
      >
        <span aria-hidden="true">${context.version.verbose_name}</span><span class="kind" aria-hidden="true">${languageCode}</span><span class="chevron" aria-hidden="true">▾</span>
        <span class="visually-hidden">${label}</span>
      </button>
      <doclens-settings exportparts="settings, settings-menu, setting" .switcher=${this} @pointerdown=${() => void this.hide(false)}></doclens-settings>
      ${this.placement === 'floating'
        ? html`<button class="collapse" part="collapse" type="button" aria-label=${this.strings.hideSwitcher} title=${this.strings.hideSwitcher} @click=${() => this.setCollapsed(true)}>
            <span aria-hidden="true">–</span>
          </button>`
        : nothing}`;
  }

  private languageName(language: { code: string; name: string }): string {
    return languageName(language.code, languageOf(this), language.name);
  }

  /** What a menu entry says beside a version: what `stable` points to, `tag` or `branch`. */
  private versionKind(version: ContextVersion, context: PageContext): string {
    if (version.slug === 'stable' && context.stable?.slug === 'stable' && context.stable.release !== 'stable') return `→ ${context.stable.release}`;
    if (version.slug === 'latest') return '';
    return version.type === 'tag' ? 'tag' : 'branch';
  }

  private renderItem(kind: 'version' | 'language', target: Target, label: string, detail: string): TemplateResult {
    return html`<a
      role="menuitemradio"
      part="item"
      tabindex="-1"
      aria-checked=${target.current ? 'true' : 'false'}
      href=${target.exists === false ? target.root_url : target.url}
      @click=${(event: MouseEvent) => void this.choose(event, kind, target)}
      ><span>${label}</span><span class="kind">${detail}</span>${target.exists === false
        ? html`<span class="missing">${kind === 'version' ? this.strings.pageNotInVersion : this.strings.pageNotInLanguage}</span>`
        : nothing}</a
    >`;
  }

  /** Which notice this version gets, dismissed or not. */
  private noticeKind(context: PageContext): 'old' | 'dev' | undefined {
    const status = context.version.status;
    if (!status || !context.stable) return undefined;
    if (this.notice === 'none' || (this.notice !== 'all' && this.notice !== status)) return undefined;
    return status;
  }

  /** The notice's text, when this version gets one. */
  private noticeMessage(context: PageContext, s: Strings): string | undefined {
    if (this.landedOnStart) return format(s.landedOnStart, { version: context.version.verbose_name });
    const kind = this.noticeKind(context);
    if (!kind || this.noticeDismissed) return undefined;
    return format(kind === 'old' ? s.oldVersionNotice : s.devVersionNotice, { version: context.version.verbose_name });
  }

  private renderNotice(context: PageContext, s: Strings): TemplateResult | typeof nothing {
    const message = this.noticeMessage(context, s);
    if (!message) return nothing;
    // The landed notice is announced: the reader did not expect this page.
    return html`<div class="notice" part="notice" role=${this.landedOnStart ? 'status' : 'note'}>
      <span>${message}</span>
      ${!this.landedOnStart && context.stable ? html`<a href=${context.stable.url}>${format(s.goToStable, { version: context.stable.verbose_name })}</a>` : nothing}
      <button class="dismiss" type="button" aria-label=${s.dismiss} @click=${this.dismissNotice}>✕</button>
    </div>`;
  }

  private renderNoticeBadge(context: PageContext, s: Strings): TemplateResult | typeof nothing {
    const message = this.noticeMessage(context, s);
    if (!message) return nothing;
    return html`<button class="notice-badge" part="notice-badge" type="button" aria-label=${message} title=${message} @click=${this.unfoldNotice}>
      <span aria-hidden="true">!</span>
    </button>`;
  }

  private unfoldNotice = async () => {
    this.noticeUnfolded = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLAnchorElement>('.notice a')?.focus();
  };
}

if (!customElements.get('doclens-versions')) customElements.define('doclens-versions', DoclensVersions);

declare global {
  interface HTMLElementTagNameMap {
    'doclens-versions': DoclensVersions;
  }
}
