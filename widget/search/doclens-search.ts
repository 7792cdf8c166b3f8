import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { define, DoclensElement } from '../shared/base-element.ts';
import { dataSource } from '../shared/data-source.ts';
import { pageContextOf } from '../versions/page-context.ts';
import { findClearSpot, LayoutSettledController, layoutViewportStyles, measureOffscreen } from '../shared/clear-spot.ts';
import { HotkeysController, isTextField, keepKeysInside } from '../shared/hotkeys.ts';
import { ScrollAwayController } from '../shared/scroll-away.ts';
import { themeStyles } from '../shared/theme.ts';
import '../settings/doclens-settings.ts';
import { deepActiveElement, DialogFocusController, focusQuietly, reveal } from './dialog-focus.ts';
import { recentKey, RecentSearches } from './recent.ts';
import { ResultList } from './result-list.ts';
import { matchedForms, withHighlight, type ResultRow } from './results.ts';
import { SearchedNames } from './scope.ts';
import { SiteOutline } from './site-outline.ts';
import { SearchAddressController, SharedLink } from './search-address.ts';
import { createSearchField, describeField } from './search-field.ts';
import { SearchRequestController } from './search-request.ts';
import { searchStyles } from './styles.ts';
import { renderDialog, renderTrigger, type SearchView } from './templates.ts';

/** Corners of the floating trigger, in order of preference (its CSS puts it in the first unless told). */
const TRIGGER_SPOTS = ['top-end', 'top-start', 'bottom-start', 'bottom-end'] as const;

let instances = 0;

/**
 * Search as you type over the documentation, in a modal dialog.
 *
 * @tag doclens-search
 *
 * @event doclens-search-open - The dialog opened.
 * @event doclens-search-close - The dialog closed.
 * @event doclens-search-select - A result was chosen; `detail: { result, block, url, newTab }`. Cancel it to navigate yourself.
 *
 * @csspart trigger - The button that opens the dialog.
 * @csspart close - The button that closes it: the Esc keycap with a mouse, the word "Close" on a touch screen
 * (44×44 px at least).
 * @csspart dialog - The dialog.
 * @csspart results - The list of results.
 * @csspart option - One result row (page or section).
 * @csspart option-place - A page row's place in the site: the titles of the pages above it, from this page's breadcrumbs
 * or tables of contents.
 * @csspart option-title - A row's title (a page's or a section's), the searched words in it highlighted.
 * @csspart more - The button that loads more results.
 * @csspart body - The scrolling area under the bar: recent searches, results or a message.
 * @csspart state - The loading, empty, error and offline messages.
 * @csspart error - The error and offline messages (also `state`), with their retry button.
 * @csspart spinner - The spinning mark in the bar while results load.
 * @csspart filters - The row naming the project searched, with its "include subprojects" box.
 * @csspart shared-link - The "link copied" note, or the field showing the search's link to copy by hand.
 * @csspart recent - The list of recent searches.
 * @csspart recent-head - Its heading row, with the clear button.
 * @csspart recent-clear - The button that clears the recent searches.
 * @csspart recent-query - A recent search (a button that runs it).
 * @csspart recent-remove - The button that removes one recent search.
 * @csspart settings - The reader's settings menu (`<doclens-settings>`, beside the close button): its button;
 * `settings-menu`, the menu; `setting`, a switch.
 *
 * @slot input - The search field: an `<input>` the element puts in its own light DOM while open, so that
 * to the page's scripts the focused element is a text field (themes' key shortcuts leave text fields alone).
 *
 * @cssproperty --doclens-color-background - Dialog background.
 * @cssproperty --doclens-color-accent - Active result and focus rings.
 * @cssproperty --doclens-color-highlight - Background of matched terms.
 * @cssproperty --doclens-shadow - Dialog shadow (the other `--doclens-*` tokens of shared/theme.ts apply too).
 */
export class DoclensSearch extends DoclensElement {
  static override styles = [themeStyles, layoutViewportStyles, searchStyles];

  /** Base URL of the doclens proxy. */
  @property() proxy = '';
  /** Base URL of the files `doclens build` wrote: set, the element reads them instead of asking a proxy. */
  @property({ attribute: 'static' }) staticFiles = '';
  /** Project searched; without it the proxy's configured projects are. */
  @property() project?: string;
  /** Version searched (with `project`). */
  @property() version?: string;
  /** The page the dialog is on, whose project's name it shows (this page by default; set it in single-page apps). */
  @property({ attribute: 'page-url' }) pageUrl?: string;
  /** The field's placeholder text (default: "Search the docs" in the page's language). */
  @property() placeholder?: string;
  /** Turn off the `/` and Ctrl/Cmd+K shortcuts. */
  @property({ type: Boolean, attribute: 'no-hotkeys' }) noHotkeys = false;
  /** Results asked per page. */
  @property({ type: Number, attribute: 'page-size' }) pageSize = 10;
  /** Milliseconds of typing pause before a request. */
  @property({ type: Number }) debounce = 150;
  /** Fewest characters that make a search. */
  @property({ type: Number, attribute: 'min-length' }) minLength = 2;
  /** Search without subprojects at first (the reader can change it). */
  @property({ type: Boolean, attribute: 'no-subprojects' }) noSubprojects = false;
  /** Do not highlight the searched terms on the page a result opens. */
  @property({ type: Boolean, attribute: 'no-highlight' }) noHighlight = false;
  /** Hide the trigger button (open with hotkeys, `show()`, or an enhanced theme search box). */
  @property({ type: Boolean, attribute: 'no-trigger' }) noTrigger = false;
  /** Whether the dialog is open (set it, or call `show()` and `hide()`). */
  @property({ type: Boolean, reflect: true }) open = false;

  @state() private query = '';
  @state() private includeSubprojects = true;

  @query('dialog') private dialog!: HTMLDialogElement;
  private readonly field = createSearchField((value) => this.setQuery(value));
  private readonly request = new SearchRequestController(
    this,
    () => ({
      source: dataSource(this.proxy, this.staticFiles),
      words: this.query,
      pageSize: this.pageSize,
      debounce: this.debounce,
      minLength: this.minLength,
      scope: { project: this.project, version: this.version, includeSubprojects: this.includeSubprojects },
    }),
    () => this.list.reset(),
  );
  private readonly dialogFocus = new DialogFocusController(this, {
    field: this.field,
    shown: () => this.open && !!this.dialog?.open,
    fieldKey: (event) => this.onFieldKey(event),
  });
  private readonly list = new ResultList(
    this,
    () => this.request.results,
    () => this.query,
  );
  private readonly names = new SearchedNames(this, () => ({
    source: dataSource(this.proxy, this.staticFiles),
    pageUrl: this.pageUrl,
    project: this.project,
    version: this.version,
  }));
  private readonly recent = new RecentSearches(this, () => recentKey(this.project));
  private readonly address = new SearchAddressController(this, () => this.field.value);
  private readonly sharedLink = new SharedLink(this);
  private returnFocus?: HTMLElement;
  /** The site's outline as this page shows it, read when the first results show. */
  private outline?: SiteOutline;
  private opening?: Promise<void>;

  constructor() {
    super();
    new HotkeysController(
      this,
      () => !this.noHotkeys && !this.open,
      () => void this.show(),
    );
    keepKeysInside(this, (event) => this.open || isTextField(event.composedPath()[0]));
    new LayoutSettledController(this, this.placeTrigger);
    new ScrollAwayController(this, () => this.hasAttribute('floating') && !this.open);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.includeSubprojects = !this.noSubprojects;
  }

  override firstUpdated(): void {
    if (this.staticFiles && this.project === undefined) void this.adoptSiteScope();
    // Asked before the dialog opens (the switcher asks the same, once per page): the filters row does not move under the reader's pointer.
    void this.names.load();
    this.placeTrigger();
    this.address.openLinked();
  }

  /**
   * In static mode the page's project and version are the ones the build's files name for it (a site
   * of plain files has no meta tags that say): searched, and told apart from other projects' results.
   */
  private async adoptSiteScope(): Promise<void> {
    try {
      const context = await pageContextOf(dataSource(this.proxy, this.staticFiles), this.pageUrl);
      this.project ??= context.project.slug;
      this.version ??= context.version.slug;
      void this.names.load();
    } catch {
      // Unscoped, the search covers the site's main version; each result says where it is from.
    }
  }

  /** The floating trigger takes a corner where it covers none of the page's controls (a theme's menu button on a phone). */
  private placeTrigger = () => {
    // Measured where it shows: not out of the way (scroll-away.ts).
    if (!this.hasAttribute('floating') || this.open || this.hasAttribute('data-scrolled-away')) return;
    const viewport = this.renderRoot.querySelector('.viewport');
    if (viewport) measureOffscreen(this, viewport);
    findClearSpot(this, this, TRIGGER_SPOTS);
  };

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('noSubprojects')) this.includeSubprojects = !this.noSubprojects;
  }

  override updated(changed: PropertyValues<this>): void {
    // A trigger that appears (the theme's box went out of sight) takes a free corner.
    if (changed.has('noTrigger') && !this.noTrigger) this.placeTrigger();
    this.describeOpenField();
  }

  /** Opens the dialog; resolves once the field has focus. Closed, it gives focus back to `returnFocus` (what has it now by default). */
  async show(initialQuery?: string, returnFocus?: HTMLElement): Promise<void> {
    if (!this.open) {
      this.returnFocus = returnFocus ?? deepActiveElement();
      this.open = true;
      this.recent.load();
      void this.names.load();
      this.address.enter();
      // The active option is referred to through the host's id.
      if (!this.id) this.id = `doclens-search-${++instances}`;
      this.append(this.field);
      this.opening = this.updateComplete
        .then(() => {
          if (this.open && !this.dialog.open) this.dialog.showModal();
          this.emit('doclens-search-open', null);
        })
        .then(() => this.address.settled);
    }
    await this.opening;
    this.field.focus();
    if (initialQuery === undefined) {
      this.field.select();
      return;
    }
    this.setQuery(initialQuery);
    // Typing goes on after the words handed over: selected, the next key would replace them.
    this.field.setSelectionRange(initialQuery.length, initialQuery.length);
  }

  /** Closes the dialog and gives focus back to where it was. */
  async hide(): Promise<void> {
    if (!this.open) return;
    // A dialog still opening is closed once it is open.
    await this.opening;
    this.dialog.close();
    // The close event comes in a later task: focus goes back now, before the caller moves it.
    this.onClose();
    await this.updateComplete;
    await this.address.settled;
  }

  private onClose = () => {
    // hide() has done it already, or the event is late and the dialog open again.
    if (!this.open || this.dialog.open) return;
    this.open = false;
    this.request.cancel();
    this.sharedLink.show();
    this.address.leave();
    if (this.returnFocus) focusQuietly(this.returnFocus);
    this.field.remove();
    this.emit('doclens-search-close', null);
  };

  private setQuery(value: string): void {
    this.query = value;
    if (this.field.value !== value) this.field.value = value;
    this.list.typed();
    this.recent.unselect();
    this.sharedLink.show();
    this.address.follow(value);
    this.request.schedule();
  }

  /**
   * The arrows go through the results, or in the empty dialog the recent searches (focus stays in the field);
   * Enter opens or runs the one reached.
   */
  private onFieldKey(event: KeyboardEvent): void {
    const idle = this.request.status === 'idle';
    const rows = idle ? [] : this.list.rows;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && (idle ? this.recent.items : rows).length) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (idle) return this.recent.step(step);
      this.list.step(step);
      void this.updateComplete.then(() =>
        reveal(this.renderRoot.querySelector('[role="option"][aria-selected="true"]'), this.renderRoot.querySelector('[part~="body"]')),
      );
    } else if (event.key === 'Enter') {
      // Never submits a form around the element.
      event.preventDefault();
      const recent = idle ? this.recent.selected : undefined;
      const row = (idle ? undefined : this.list.active) ?? rows[0];
      if (recent) this.runRecent(recent);
      else if (row) this.select(row, event.ctrlKey || event.metaKey);
    }
  }

  private runRecent(item: string): void {
    this.setQuery(item);
    this.field.setSelectionRange(item.length, item.length);
  }

  private describeOpenField(): void {
    if (!this.open) return;
    describeField(this.field, this, {
      strings: this.strings,
      placeholder: this.placeholder,
      status: this.request.status,
      activeId: this.list.active?.id,
    });
  }

  /** The destination, with the searched words for the page to highlight. */
  private destination(row: ResultRow): string {
    return this.noHighlight ? row.url : withHighlight(row.url, this.query.trim(), window.location.href, matchedForms(row));
  }

  private select(row: ResultRow, newTab: boolean): void {
    const url = this.destination(row);
    const words = this.query.trim();
    if (words.length >= this.minLength) this.recent.add(words);
    if (!this.emit('doclens-search-select', { result: row.result, block: row.block, url, newTab }, { cancelable: true })) return;
    if (newTab) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    this.address.leavingForResult = true;
    void this.hide();
    window.location.assign(url);
  }

  /** The dialog as the templates see it. */
  private get view(): SearchView {
    const { project, version } = this;
    return {
      strings: this.strings,
      request: this.request,
      recent: this.recent,
      list: this.list,
      words: this.query.trim(),
      project,
      version,
      searchingIn: this.names.label(this.strings),
      includeSubprojects: this.includeSubprojects,
      hasSubprojects: this.names.hasSubprojects,
      placeOf: (row) => {
        this.outline ??= new SiteOutline();
        return this.outline.above(row.url);
      },
      sharedLink: this.sharedLink.link,
      href: (row) => this.destination(row),
      select: (row, newTab) => this.select(row, newTab),
      runRecent: (item) => this.runRecent(item),
      copyLink: () => void this.sharedLink.copy(this.query.trim()),
      setIncludeSubprojects: (included) => {
        this.includeSubprojects = included;
        this.request.schedule();
      },
      close: () => void this.hide(),
    };
  }

  override render(): TemplateResult {
    const s = this.strings;
    return html`
      ${this.noTrigger ? nothing : html`<div class="viewport" aria-hidden="true"></div>`}
      ${this.noTrigger ? nothing : renderTrigger(s, this.placeholder, !this.noHotkeys, () => void this.show())}
      <dialog
        part="dialog"
        aria-label=${s.searchLabel}
        @close=${this.onClose}
        @keydown=${this.dialogFocus.onKeydown}
        @focusout=${this.dialogFocus.onFocusout}
        @mousedown=${this.dialogFocus.onMousedown}
        @click=${(event: MouseEvent) => event.target === this.dialog && void this.hide()}
      >
        ${this.open ? renderDialog(this.view) : nothing}
      </dialog>
    `;
  }
}

define('doclens-search', DoclensSearch);

declare global {
  interface HTMLElementTagNameMap {
    'doclens-search': DoclensSearch;
  }
}
