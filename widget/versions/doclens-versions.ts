import { nothing, type TemplateResult } from 'lit';
import { property, queryAll, state } from 'lit/decorators.js';
import type { PageContext } from '../../contract/index.ts';
import { define, DoclensElement } from '../shared/base-element.ts';
import { dataSource } from '../shared/data-source.ts';
import { findClearSpot, LayoutSettledController, layoutViewportStyles, measureOffscreen } from '../shared/clear-spot.ts';
import { keepKeysInside, takeKey } from '../shared/hotkeys.ts';
import { moveInMenu } from '../shared/menu-keys.ts';
import { languageName, languageOf } from '../shared/i18n.ts';
import { themeStyles } from '../shared/theme.ts';
import '../settings/doclens-settings.ts';
import type { NoticedVersion } from '../settings/doclens-settings.ts';
import {
  changeReaderSettings,
  isNoticeDismissed,
  onReaderSettingsChange,
  readerSettings,
  setNoticeDismissed,
  type ReaderSettings,
} from '../settings/store.ts';
import { destinationOf, pageContextOf, pageOrStart, takeLandedMarker } from './page-context.ts';
import { versionsStyles } from './styles.ts';
import { renderSwitcher, type SwitcherView } from './templates.ts';
import { hasChoice, noticeKind, noticeMessage, typeaheadIndex, type NoticeSetting, type Target } from './version-menu.ts';

/** Corners of the floating switcher and edges of the notice, in order of preference (the first is where CSS puts them unless told). */
const SWITCHER_SPOTS = ['bottom-end', 'bottom-start', 'top-end', 'top-start'] as const;
const NOTICE_SPOTS = ['top', 'bottom', 'bottom-end', 'top-end', 'bottom-start', 'top-start'] as const;

/**
 * The version and language switcher: goes to the same page in another version or translation, or to
 * that version's root when the page does not exist there.
 *
 * @tag doclens-versions
 *
 * @event doclens-versions-select - A version or language was chosen; `detail: { kind, slug, url }`. Cancel it to navigate yourself.
 *
 * @csspart switcher - The switcher itself (toggle or badge, settings, collapse button and menu), floating or in place.
 * @csspart toggle - The button showing the current version and language.
 * @csspart menu - The menu.
 * @csspart item - A version, language or download entry.
 * @csspart detail - An entry's detail: a version's kind (tag, branch, → the version it stands for) or a language's code.
 * @csspart missing - An entry's "page not in this version (language)" mark.
 * @csspart notice - The old or development version notice.
 * @csspart dismiss - The notice's dismiss button.
 * @csspart collapse - The button that folds the floating switcher into a badge.
 * @csspart badge - The folded switcher.
 * @csspart notice-badge - The notice, folded where it would cover the page's own controls.
 * @csspart settings - The reader's settings menu (`<doclens-settings>`, beside the toggle): its button;
 * `settings-menu`, the menu; `setting`, a switch.
 *
 * @cssproperty --doclens-color-background - Menu background.
 * @cssproperty --doclens-color-accent - The current entry and focus rings.
 * @cssproperty --doclens-z-index - Stacking order of the floating flyout.
 */
export class DoclensVersions extends DoclensElement {
  static override styles = [themeStyles, layoutViewportStyles, versionsStyles];

  /** Base URL of the doclens proxy. */
  @property() proxy = '';
  /** Base URL of the files `doclens build` wrote: set, the element reads them instead of asking a proxy. */
  @property({ attribute: 'static' }) staticFiles = '';
  /** Project of the page; else the page's meta tags or its URL tell. */
  @property() project?: string;
  /** Version of the page (with `project`). */
  @property() version?: string;
  /** The page whose versions are listed (this page by default; set it in single-page apps). */
  @property({ attribute: 'page-url' }) pageUrl?: string;
  /** `floating` (a flyout in the corner) or `inline` (in the theme's sidebar). */
  @property({ reflect: true }) placement: 'floating' | 'inline' = 'floating';
  /** Which notice to show: `old` versions, `dev` (development) versions, `all`, or `none`. */
  @property() notice: NoticeSetting = 'old';
  /** Shows the switcher even where there is nothing to choose (one version, one language); the notices show either way. */
  @property({ type: Boolean }) always = false;
  /** Whether the menu is open (set it, or call `show()` and `hide()`). */
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

  private stopFollowingSettings?: () => void;
  private focusAfterFold = false;

  constructor() {
    super();
    new LayoutSettledController(this, (resized) => void this.arrange(resized));
    // The menu's arrows, Enter and Escape are its own: Sphinx pages may turn arrows into page turns.
    keepKeysInside(this, () => true);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (takeLandedMarker()) this.landedOnStart = true;
    document.addEventListener('pointerdown', this.onOutside);
    document.addEventListener('doclens-search-close', this.onUncovered);
    this.stopFollowingSettings = onReaderSettingsChange((settings) => void this.applySettings(settings));
    void this.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.onOutside);
    document.removeEventListener('doclens-search-close', this.onUncovered);
    this.stopFollowingSettings?.();
  }

  /** Loads the page context for the current page. */
  async refresh(): Promise<void> {
    try {
      this.context = await pageContextOf(dataSource(this.proxy, this.staticFiles), this.pageUrl, this.project, this.version);
      const settings = readerSettings();
      this.noticeDismissed = this.isDismissed(settings);
      this.collapsed = settings.switcherCollapsed;
      await this.arrange(true);
    } catch {
      // Without data there is nothing to switch to: the switcher stays out of the way.
      this.context = undefined;
    }
  }

  /** Opens the menu with focus on the current entry (or the first or last). */
  async show(focus: 'current' | 'first' | 'last' = 'current'): Promise<void> {
    this.open = true;
    await this.updateComplete;
    const items = [...this.items];
    const current = items.find((item) => item.getAttribute('aria-checked') === 'true');
    (focus === 'last' ? items[items.length - 1] : focus === 'first' ? items[0] : (current ?? items[0]))?.focus();
  }

  /** Closes the menu, giving focus back to the toggle unless told otherwise. */
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
      takeKey(event);
      void this.hide();
    } else if (event.key === 'Tab') void this.hide(false);
    else if (event.key === ' ') {
      event.preventDefault();
      items[index]?.click();
    } else if (event.key.length === 1 && /\S/.test(event.key)) {
      items[
        typeaheadIndex(
          items.map((item) => item.textContent ?? ''),
          index,
          event.key,
        )
      ]?.focus();
    }
  };

  private async choose(event: MouseEvent, kind: 'version' | 'language', target: Target): Promise<void> {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    event.preventDefault();
    const url = await pageOrStart(target);
    if (!this.emit('doclens-versions-select', { kind, slug: target.slug, url }, { cancelable: true })) return;
    window.location.assign(destinationOf(target, url));
  }

  private isDismissed(settings: ReaderSettings): boolean {
    return !!this.context && isNoticeDismissed(settings, this.context.project.slug, this.context.version.slug);
  }

  /** The version whose notice this switcher shows, or would had the reader not dismissed it: the settings menu offers it back. */
  get noticeVersion(): NoticedVersion | undefined {
    const context = this.context;
    const kind = context && noticeKind(context, this.notice);
    return kind ? { project: context.project.slug, version: context.version.slug, name: context.version.verbose_name, kind } : undefined;
  }

  /** Whether it shows versions or languages to choose; undefined until it has found the version. */
  get offersChoice(): boolean | undefined {
    return this.context && this.offersIn(this.context);
  }

  private offersIn(context: PageContext): boolean {
    return this.always || hasChoice(context);
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
    if (!viewport) return;
    measureOffscreen(this, viewport);
    if (switcher && !findClearSpot(switcher, this, SWITCHER_SPOTS) && !this.collapsed && !this.crowded && fresh) {
      this.crowded = true;
      await this.updateComplete;
      findClearSpot(switcher, this, SWITCHER_SPOTS);
    }
    const notice = this.renderRoot.querySelector<HTMLElement>('.notice');
    const covered = switcher ? [switcher.getBoundingClientRect()] : [];
    if (notice && !this.noticeUnfolded) this.noticeFolded = !findClearSpot(notice, this, NOTICE_SPOTS, covered);
  }

  override render(): TemplateResult | typeof nothing {
    return this.context ? renderSwitcher(this.view(this.context)) : nothing;
  }

  /** The switcher as the templates see it. */
  private view(context: PageContext): SwitcherView {
    const { strings, landedOnStart } = this;
    return {
      strings,
      context,
      choice: this.offersIn(context),
      open: this.open,
      floating: this.placement === 'floating',
      badge: this.placement === 'floating' && (this.collapsed || this.crowded),
      notice: noticeMessage(context, strings, { notice: this.notice, dismissed: this.noticeDismissed, landedOnStart }),
      noticeFolded: this.noticeFolded && !this.noticeUnfolded,
      landedOnStart,
      switcher: this,
      languageName: (language) => languageName(language.code, languageOf(this), language.name),
      toggle: () => void (this.open ? this.hide() : this.show()),
      onToggleKeydown: this.onToggleKeydown,
      onMenuKeydown: this.onMenuKeydown,
      close: () => void this.hide(false),
      choose: (event, kind, target) => void this.choose(event, kind, target),
      setCollapsed: (collapsed) => this.setCollapsed(collapsed),
      dismissNotice: this.dismissNotice,
      unfoldNotice: () => void this.unfoldNotice(),
    };
  }

  private unfoldNotice = async () => {
    this.noticeUnfolded = true;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLAnchorElement>('.notice a')?.focus();
  };
}

define('doclens-versions', DoclensVersions);

declare global {
  interface HTMLElementTagNameMap {
    'doclens-versions': DoclensVersions;
  }
}
