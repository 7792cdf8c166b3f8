import { html, nothing, type TemplateResult } from 'lit';
import { property, query, queryAll, state } from 'lit/decorators.js';
import { keepKeysInside, swallowKeyup, takeKey } from '../shared/hotkeys.ts';
import { moveInMenu } from '../shared/menu-keys.ts';
import { define, DoclensElement } from '../shared/base-element.ts';
import { format, type Strings } from '../shared/i18n.ts';
import { anchor } from '../shared/position.ts';
import { themeStyles } from '../shared/theme.ts';
import { changeReaderSettings, isNoticeDismissed, onReaderSettingsChange, readerSettings, setNoticeDismissed } from './store.ts';
import { settingsStyles } from './styles.ts';

/** A version whose old- or development-version notice a switcher shows (or would, had the reader not dismissed it). */
export interface NoticedVersion {
  project: string;
  version: string;
  /** The version's name as readers see it. */
  name: string;
  kind: 'old' | 'dev';
}

/**
 * What the menu asks of a version switcher (`<doclens-versions>`); its `placement` attribute tells whether it
 * floats (and so folds into a badge).
 */
export interface SwitcherSwitches extends HTMLElement {
  /** Undefined until the switcher's code has loaded and found the version. */
  readonly noticeVersion?: NoticedVersion | undefined;
  /** Whether it shows versions or languages to choose (false on a site of one version, where it shows none). */
  readonly offersChoice?: boolean;
}

interface Switch {
  label: string;
  checked: boolean;
  set: (on: boolean) => void;
}

const slidersIcon = html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"
  stroke-linecap="round" aria-hidden="true"><path d="M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1"></path>
  <circle cx="15" cy="6" r="2"></circle><circle cx="9" cy="12" r="2"></circle><circle cx="17" cy="18" r="2"></circle></svg>`;

/**
 * The reader's own switches, remembered for the site: link previews, the version switcher kept
 * folded into its badge, and the notice of an old or development version. A button and a menu of
 * checkable items; every doclens element on the page (and in the site's other tabs) follows at once.
 * The search dialog and the version switcher each carry one.
 *
 * @tag doclens-settings
 *
 * @event doclens-settings-change - On `window`, whenever the settings change; `detail` holds them all.
 *
 * @csspart settings - The button that opens the menu.
 * @csspart settings-menu - The menu.
 * @csspart setting - One switch (a `menuitemcheckbox`).
 *
 * @cssproperty --doclens-color-background - Menu background.
 * @cssproperty --doclens-color-surface - The focused switch.
 * @cssproperty --doclens-color-accent - Checked switches and focus rings.
 * @cssproperty --doclens-z-index - Stacking order (the menu is in the top layer where popovers are supported).
 */
export class DoclensSettings extends DoclensElement {
  static override styles = [themeStyles, settingsStyles];

  /** Whether the menu is open (set it, or call `show()` and `hide()`). */
  @property({ type: Boolean, reflect: true }) open = false;
  /** The switcher whose switches are offered; by default the page's `<doclens-versions>`. */
  @property({ attribute: false }) switcher?: SwitcherSwitches;

  @state() private settings = readerSettings();

  @query('[part="settings"]') private button!: HTMLButtonElement;
  @query('[part="settings-menu"]') private menu!: HTMLElement;
  @queryAll('[role="menuitemcheckbox"]') private items!: NodeListOf<HTMLElement>;

  private stopFollowingSettings?: () => void;
  private stopPlacing?: () => void;

  constructor() {
    super();
    // Keys typed in the menu are its own (a theme's shortcuts must not act on them); on the button they
    // go on to a dialog around it, whose Escape and Tab must still work.
    keepKeysInside(this, (event) => this.open || event.composedPath().includes(this.menu));
  }

  override connectedCallback(): void {
    // Inside another doclens element whose author fixed its colour scheme, the same scheme.
    const container = this.container;
    if (container?.hasAttribute('data-scheme-fixed') && !this.hasAttribute('scheme'))
      this.setAttribute('scheme', container.getAttribute('scheme') ?? 'light');
    super.connectedCallback();
    this.settings = readerSettings();
    this.stopFollowingSettings = onReaderSettingsChange((settings) => (this.settings = settings));
    document.addEventListener('pointerdown', this.onOutside);
  }

  /** The doclens element whose shadow tree holds this menu, if any. */
  private get container(): Element | undefined {
    return (this.getRootNode() as Partial<ShadowRoot>).host;
  }

  /** The strings of the element around the menu. */
  protected override languageElement(): Element {
    return this.container ?? this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopFollowingSettings?.();
    document.removeEventListener('pointerdown', this.onOutside);
    this.stopPlacing?.();
    this.open = false;
  }

  /** Opens the menu with focus on its first (or last) switch. */
  async show(focus: 'first' | 'last' = 'first'): Promise<void> {
    this.open = true;
    await this.updateComplete;
    if (!this.menu.matches(':popover-open')) this.menu.showPopover();
    this.stopPlacing?.();
    // Under the button, or above it where there is more room; inside the viewport.
    this.stopPlacing = anchor(this.button, this.menu, { gap: 6, align: 'end' });
    const items = [...this.items];
    (focus === 'last' ? items.at(-1) : items[0])?.focus();
  }

  /** Closes the menu, giving focus back to its button unless told otherwise. */
  async hide(returnFocus = true): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.stopPlacing?.();
    this.stopPlacing = undefined;
    if (this.menu.matches(':popover-open')) this.menu.hidePopover();
    if (returnFocus) this.button.focus();
    await this.updateComplete;
  }

  private onOutside = (event: PointerEvent) => {
    if (this.open && !event.composedPath().includes(this)) void this.hide(false);
  };

  private onButtonKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    // Not a page turn in themes that bind the arrows.
    event.preventDefault();
    event.stopPropagation();
    void this.show(event.key === 'ArrowDown' ? 'first' : 'last');
  };

  private onMenuKeydown = (event: KeyboardEvent) => {
    const items = [...this.items];
    const focused = this.shadowRoot?.activeElement;
    if (moveInMenu(event, items, focused)) return;
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      (focused as HTMLElement | null | undefined)?.click();
      // Space checks and stays, as in a menu of checkboxes; Enter checks and closes.
      if (event.key === 'Enter') this.closeByKey(event.key);
    } else if (event.key === 'Escape') {
      // Only the menu closes: a search dialog around it stays open.
      takeKey(event);
      this.closeByKey(event.key);
    } else if (event.key === 'Tab') {
      // Tab goes on from the button, as if the menu had not been there.
      void this.hide();
    }
  };

  /** The key's release happens on the button, outside the menu: the page's handlers must not see it either. */
  private closeByKey(key: string): void {
    swallowKeyup(key);
    void this.hide();
  }

  /** The switches that apply on this page. */
  private switches(s: Strings): Switch[] {
    const settings = this.settings;
    const switcher = this.switcher ?? (document.querySelector('doclens-versions') as SwitcherSwitches | null);
    const switches: Switch[] = [{ label: s.showPreviews, checked: settings.previews, set: (on) => changeReaderSettings({ previews: on }) }];
    // The attribute, which the switcher reflects: the page's switcher may not have loaded its code yet.
    if (switcher?.getAttribute('placement') === 'floating' && switcher.offersChoice !== false) {
      switches.push({
        label: s.keepSwitcherCollapsed,
        checked: settings.switcherCollapsed,
        set: (on) => changeReaderSettings({ switcherCollapsed: on }),
      });
    }
    const notice = switcher?.noticeVersion;
    if (notice) {
      switches.push({
        label: format(notice.kind === 'old' ? s.showOldNotice : s.showDevNotice, { version: notice.name }),
        checked: !isNoticeDismissed(settings, notice.project, notice.version),
        set: (on) => setNoticeDismissed(notice.project, notice.version, !on),
      });
    }
    return switches;
  }

  override render(): TemplateResult {
    const s = this.strings;
    return html`<button
        part="settings"
        type="button"
        aria-haspopup="menu"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="menu"
        aria-label=${s.readerSettings}
        title=${s.readerSettings}
        @click=${() => (this.open ? void this.hide() : void this.show())}
        @keydown=${this.onButtonKeydown}
      >
        ${slidersIcon}
      </button>
      <div id="menu" part="settings-menu" role="menu" popover="manual" aria-label=${s.readerSettings} @keydown=${this.onMenuKeydown}>
        <div class="heading" aria-hidden="true">${s.readerSettings}</div>
        ${
          this.open
            ? this.switches(s).map(
                (item) => html`<div role="menuitemcheckbox" part="setting" tabindex="-1"
                  aria-checked=${item.checked ? 'true' : 'false'} @click=${() => item.set(!item.checked)}>
                <span class="check" aria-hidden="true"></span><span>${item.label}</span>
              </div>`,
              )
            : nothing
        }
      </div>`;
  }
}

define('doclens-settings', DoclensSettings);

declare global {
  interface HTMLElementTagNameMap {
    'doclens-settings': DoclensSettings;
  }
}
