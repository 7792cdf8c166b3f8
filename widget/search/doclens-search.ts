import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { SearchBlock, SearchResponse, SearchResult } from '../../contract/index.ts';
import { getJson, isAbort, ProxyRequestError } from '../shared/api.ts';
import { findClearSpot, whenLayoutSettles } from '../shared/clear-spot.ts';
import { commandKLabel, HotkeysController, isTextField, keepKeysInside, swallowKeyup } from '../shared/hotkeys.ts';
import { format, languageOf, stringsFor, type Strings } from '../shared/i18n.ts';
import { docsPath, HIGHLIGHT_PARAM } from '../shared/page.ts';
import { sanitizeHighlight } from '../shared/sanitize.ts';
import { ColorSchemeController, themeStyles } from '../shared/theme.ts';
import '../settings/doclens-settings.ts';
import { pageContextOf } from '../versions/page-context.ts';
import { queryInFragment, withoutFragment, withQueryFragment } from './query-url.ts';
import { searchStyles } from './styles.ts';

/** One selectable row of the listbox: a page, or a section of it. */
interface Option {
  id: string;
  url: string;
  result: SearchResult;
  block?: SearchBlock;
}

type Status = 'idle' | 'loading' | 'results' | 'empty' | 'error' | 'offline';

const RECENT_LIMIT = 8;
/** Corners of the floating trigger, in order of preference (its CSS puts it in the first unless told). */
const TRIGGER_SPOTS = ['top-end', 'top-start', 'bottom-start', 'bottom-end'] as const;
const CACHE_LIMIT = 50;
/** Milliseconds before partial results (the host still indexing) are asked for again. */
const INDEXING_RETRY_MS = 1000;

/** Attributes of the search field that never change. */
const FIELD_ATTRIBUTES: Record<string, string> = {
  // Not type="search": its clear button cannot be styled away from a shadow tree, and the dialog has its own close button.
  type: 'text',
  inputmode: 'search',
  slot: 'input',
  role: 'combobox',
  'aria-autocomplete': 'list',
  'aria-haspopup': 'listbox',
  autocomplete: 'off',
  autocapitalize: 'off',
  autocorrect: 'off',
  spellcheck: 'false',
  enterkeyhint: 'go',
  maxlength: '200',
};

/** The next index of a list the arrows go round; from none, Down goes to the first and Up to the last. */
function stepIndex(index: number, step: 1 | -1, length: number): number {
  if (index < 0) return step === 1 ? 0 : length - 1;
  return (index + step + length) % length;
}

const canReferToShadow = typeof ShadowRoot !== 'undefined' && 'referenceTarget' in ShadowRoot.prototype;
let instances = 0;

const searchIcon = html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><circle cx="11" cy="11" r="7"></circle><path d="m20 20-3.5-3.5"></path></svg>`;

const linkIcon = html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M10 14a5 5 0 0 0 7 0l3-3a5 5 0 0 0-7-7l-1 1"></path><path d="M14 10a5 5 0 0 0-7 0l-3 3a5 5 0 0 0 7 7l1-1"></path></svg>`;

/** `/en/latest/guides/retries.html` → `guides › retries`. */
function breadcrumb(path: string): string {
  return docsPath(path)
    .page.map((segment) => decodeURIComponent(segment).replace(/\.html?$/, ''))
    .filter((segment) => segment !== 'index')
    .join(' › ');
}

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
 * @csspart dialog - The dialog.
 * @csspart results - The list of results.
 * @csspart option - One result row (page or section).
 * @csspart state - The loading, empty, error and offline messages.
 * @csspart settings - The button of the reader's settings menu (`<doclens-settings>`), beside the close button.
 * @csspart settings-menu - That menu.
 * @csspart setting - One of its switches.
 *
 * @slot input - The search field: an `<input>` the element puts in its own light DOM while open, so that
 * to the page's scripts the focused element is a text field (themes' key shortcuts leave text fields alone).
 *
 * @cssproperty --doclens-color-text - Text colour.
 * @cssproperty --doclens-color-muted - Secondary text colour.
 * @cssproperty --doclens-color-background - Dialog background.
 * @cssproperty --doclens-color-surface - Background of hovered and secondary areas.
 * @cssproperty --doclens-color-border - Borders.
 * @cssproperty --doclens-color-accent - Active result and focus rings.
 * @cssproperty --doclens-color-accent-text - Text on the accent colour.
 * @cssproperty --doclens-color-highlight - Background of matched terms.
 * @cssproperty --doclens-font-family - Font (inherited from the page by default).
 * @cssproperty --doclens-radius - Corner radius.
 * @cssproperty --doclens-spacing - Base spacing unit.
 * @cssproperty --doclens-shadow - Dialog shadow.
 */
export class DoclensSearch extends LitElement {
  static override styles = [themeStyles, searchStyles];

  /** Base URL of the doclens proxy. */
  @property() proxy = '';
  /** Project searched; without it the proxy's configured projects are. */
  @property() project?: string;
  /** Version searched (with `project`). */
  @property() version?: string;
  /** The page the dialog is on, whose project's name it shows (this page by default; set it in single-page apps). */
  @property({ attribute: 'page-url' }) pageUrl?: string;
  @property() placeholder?: string;
  /** Turn off the `/` and Ctrl/Cmd+K shortcuts. */
  @property({ type: Boolean, attribute: 'no-hotkeys' }) noHotkeys = false;
  /** Results asked per page. */
  @property({ type: Number, attribute: 'page-size' }) pageSize = 10;
  /** Milliseconds of typing pause before a request. */
  @property({ type: Number }) debounce = 150;
  @property({ type: Number, attribute: 'min-length' }) minLength = 2;
  /** Search without subprojects at first (the reader can change it). */
  @property({ type: Boolean, attribute: 'no-subprojects' }) noSubprojects = false;
  /** Do not highlight the searched terms on the page a result opens. */
  @property({ type: Boolean, attribute: 'no-highlight' }) noHighlight = false;
  /** Hide the trigger button (open with hotkeys, `show()`, or an enhanced theme search box). */
  @property({ type: Boolean, attribute: 'no-trigger' }) noTrigger = false;
  @property({ type: Boolean, reflect: true }) open = false;

  @state() private query = '';
  @state() private status: Status = 'idle';
  @state() private results: SearchResult[] = [];
  @state() private count = 0;
  /** The answer shown is partial: the host is still indexing. */
  @state() private indexing = false;
  @state() private nextPage: number | null = null;
  @state() private activeIndex = -1;
  @state() private includeSubprojects = true;
  @state() private recent: string[] = [];
  /** The searched project's and version's names, for "Searching Aurora 2.0" (the slugs until they are known). */
  @state() private searchedNames?: { project: string; version: string };
  @state() private loadingMore = false;
  /** The recent search the arrows reached in the empty dialog. */
  @state() private recentIndex = -1;
  /** The link of "copy link to this search": copied, or shown to copy by hand when the clipboard refused it. */
  @state() private sharedLink?: { url: string; copied: boolean };

  /** The reader moved through the results with the arrows (then the active one is announced where it cannot be referred to). */
  @state() private arrowed = false;

  @query('dialog') private dialog!: HTMLDialogElement;
  private readonly field = this.createField();

  private strings: Strings = stringsFor('en');
  private timer?: ReturnType<typeof setTimeout>;
  private controller?: AbortController;
  private stopFollowing?: () => void;
  private requestId = 0;
  private readonly cache = new Map<string, SearchResponse>();
  private returnFocus?: HTMLElement;
  private opening?: Promise<void>;
  /** A result is opening in this tab: the search keeps its history entry, so that Back from the result comes back to it. */
  private leavingForResult = false;
  /** The dialog's history entry is the current one. */
  private ownsEntry = false;
  /** Settles once the URL changes already asked for are done (going back is asynchronous). */
  private urlSettled: Promise<void> = Promise.resolve();
  /** Counts openings: an entry still waiting when its dialog closed and opened again is not pushed twice. */
  private openings = 0;
  /** The page entry's own scroll restoration, turned off while the dialog's entry is on top of it. */
  private pageScrollRestoration: ScrollRestoration = 'auto';

  constructor() {
    super();
    new ColorSchemeController(this);
    new HotkeysController(this, () => !this.noHotkeys && !this.open, () => void this.show());
    keepKeysInside(this, (event) => this.open || isTextField(event.composedPath()[0]));
  }

  private createField(): HTMLInputElement {
    const field = document.createElement('input');
    for (const [name, value] of Object.entries(FIELD_ATTRIBUTES)) field.setAttribute(name, value);
    field.addEventListener('input', () => this.setQuery(field.value));
    return field;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.strings = stringsFor(languageOf(this));
    this.includeSubprojects = !this.noSubprojects;
    this.stopFollowing = whenLayoutSettles(this.placeTrigger);
    window.addEventListener('pageshow', this.onPageshow);
    window.addEventListener('hashchange', this.onHashchange);
  }

  /** A link to a search on the page already open (or Forward to one) changes only the fragment. */
  private onHashchange = (event: HashChangeEvent) => {
    const linkedQuery = queryInFragment(event.newURL);
    if (linkedQuery !== undefined && event.newURL === window.location.href && !this.open) void this.show(linkedQuery);
  };

  /** Back from a result to a page kept in memory: the search it left from opens again. */
  private onPageshow = (event: PageTransitionEvent) => {
    this.leavingForResult = false;
    const linkedQuery = queryInFragment(window.location.href);
    if (event.persisted && linkedQuery !== undefined) void this.show(linkedQuery);
  };

  override firstUpdated(): void {
    this.placeTrigger();
    // A link to a search opens it.
    const linkedQuery = queryInFragment(window.location.href);
    if (linkedQuery !== undefined) void this.show(linkedQuery);
  }

  /** The floating trigger takes a corner where it covers none of the page's controls (a theme's menu button on a phone). */
  private placeTrigger = () => {
    if (this.hasAttribute('floating') && !this.open) findClearSpot(this, this, TRIGGER_SPOTS);
  };

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('noSubprojects')) this.includeSubprojects = !this.noSubprojects;
    if (changed.has('project') || changed.has('version')) this.searchedNames = undefined;
  }

  /** Asks the page context (shared with the switcher, asked once per page) for the names of what is searched. */
  private async loadSearchedNames(): Promise<void> {
    if (!this.project || this.searchedNames) return;
    try {
      const context = await pageContextOf(this.proxy, this.pageUrl, this.project, this.version);
      const named = context.project.slug === this.project && (this.version === undefined || context.version.slug === this.version);
      if (named) this.searchedNames = { project: context.project.name, version: this.version === undefined ? '' : context.version.verbose_name };
    } catch {
      // The slugs stay: a label is no reason to fail the search.
    }
  }

  /** Opens the dialog; resolves once the field has focus. */
  async show(initialQuery?: string): Promise<void> {
    if (!this.open) {
      this.returnFocus = deepActiveElement();
      this.open = true;
      this.recent = this.loadRecent();
      void this.loadSearchedNames();
      this.recentIndex = -1;
      this.enterUrl();
      // The active option is referred to through the host's id.
      if (!this.id) this.id = `doclens-search-${++instances}`;
      this.append(this.field);
      this.opening = this.updateComplete.then(() => {
        if (this.open && !this.dialog.open) this.dialog.showModal();
        this.dispatchEvent(new CustomEvent('doclens-search-open', { bubbles: true, composed: true }));
      }).then(() => this.urlSettled);
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
    await this.urlSettled;
  }

  /**
   * The query goes into the URL in an entry of its own, so that Back closes the dialog. A URL that opened
   * the dialog is first put back as it was without the search, for Back to land on the page itself.
   */
  private enterUrl(): void {
    // After a Back still under way, which would otherwise take away the new entry.
    const opening = ++this.openings;
    this.urlSettled = this.urlSettled.then(() => {
      if (!this.open || opening !== this.openings) return;
      const url = window.location.href;
      if (queryInFragment(url) !== undefined) window.history.replaceState(window.history.state, '', withoutFragment(url));
      // Coming back to the page's entry must not move the page to where it was when that entry was last saved.
      this.pageScrollRestoration = window.history.scrollRestoration;
      window.history.scrollRestoration = 'manual';
      window.history.pushState(window.history.state, '', withQueryFragment(window.location.href, this.field.value.trim()));
      this.ownsEntry = true;
      window.addEventListener('popstate', this.onPopstate);
    });
  }

  /** Back (or any move) to an entry without the search closes the dialog. */
  private onPopstate = () => {
    if (queryInFragment(window.location.href) !== undefined) return;
    window.history.scrollRestoration = this.pageScrollRestoration;
    void this.hide();
  };

  /** Closed otherwise than by Back, the dialog takes its entry away: same document, so no reload, and the scroll position is the one it left. */
  private leaveUrl(): void {
    window.removeEventListener('popstate', this.onPopstate);
    const owned = this.ownsEntry;
    this.ownsEntry = false;
    // Going back now would also cancel the navigation to the result.
    if (this.leavingForResult || queryInFragment(window.location.href) === undefined) return;
    if (!owned) {
      // The dialog's entry was never pushed (closed while opening): a search in the address is not left behind.
      window.history.replaceState(window.history.state, '', withoutFragment(window.location.href));
      return;
    }
    this.urlSettled = new Promise((resolve) => {
      window.addEventListener(
        'popstate',
        () => {
          window.history.scrollRestoration = this.pageScrollRestoration;
          // Where Back landed on another search entry (a race of fast openings), the address is cleaned all the same.
          if (queryInFragment(window.location.href) !== undefined) window.history.replaceState(window.history.state, '', withoutFragment(window.location.href));
          resolve();
        },
        { once: true },
      );
      window.history.back();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopFollowing?.();
    window.removeEventListener('pageshow', this.onPageshow);
    window.removeEventListener('hashchange', this.onHashchange);
    window.removeEventListener('popstate', this.onPopstate);
    // Taken out of the page while open: no search is left in the address.
    if (this.ownsEntry) window.history.replaceState(window.history.state, '', withoutFragment(window.location.href));
    this.ownsEntry = false;
    clearTimeout(this.timer);
    this.controller?.abort();
  }

  private onClose = () => {
    // hide() has done it already, or the event is late and the dialog open again.
    if (!this.open || this.dialog.open) return;
    this.open = false;
    clearTimeout(this.timer);
    this.controller?.abort();
    this.sharedLink = undefined;
    this.leaveUrl();
    this.returnFocus?.focus();
    this.field.remove();
    this.dispatchEvent(new CustomEvent('doclens-search-close', { bubbles: true, composed: true }));
  };

  private setQuery(value: string): void {
    this.query = value;
    if (this.field.value !== value) this.field.value = value;
    this.arrowed = false;
    this.recentIndex = -1;
    this.sharedLink = undefined;
    if (this.ownsEntry) window.history.replaceState(window.history.state, '', withQueryFragment(window.location.href, value.trim()));
    this.schedule();
  }

  private copyLink = async () => {
    const url = withQueryFragment(window.location.href, this.query.trim());
    try {
      // Undefined outside secure contexts; rejected when the page may not write the clipboard.
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      this.sharedLink = { url, copied: true };
    } catch {
      this.sharedLink = { url, copied: false };
      await this.updateComplete;
      const linkField = this.renderRoot.querySelector<HTMLInputElement>('.shared input');
      linkField?.focus();
      linkField?.select();
    }
  };

  private get searchTerm(): string {
    if (!this.project) return '';
    const kind = this.includeSubprojects ? 'subprojects' : 'project';
    return `${kind}:${this.project}${this.version ? `/${this.version}` : ''}`;
  }

  private requestQuery(): string {
    return [this.searchTerm, this.query.trim()].filter(Boolean).join(' ');
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const words = this.query.trim();
    if (words.length < this.minLength) {
      this.requestId++;
      this.controller?.abort();
      this.status = 'idle';
      this.results = [];
      this.activeIndex = -1;
      return;
    }
    const cached = this.cache.get(this.cacheKey(1));
    if (cached) {
      // Backspace over earlier queries answers at once.
      this.requestId++;
      this.controller?.abort();
      this.apply(cached, 1, false);
      return;
    }
    this.status = 'loading';
    this.timer = setTimeout(() => void this.run(1, false), this.debounce);
  }

  private cacheKey(page: number): string {
    return `${this.requestQuery()}|${page}|${this.pageSize}`;
  }

  private async run(page: number, append: boolean): Promise<void> {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const id = ++this.requestId;
    const key = this.cacheKey(page);
    if (append) this.loadingMore = true;
    else this.status = 'loading';
    try {
      const response = await getJson<SearchResponse>(this.proxy, 'api/v3/search/', { q: this.requestQuery(), page: String(page), page_size: String(this.pageSize) }, controller.signal);
      if (id !== this.requestId) return;
      // Partial results are asked again shortly (typing cancels that), and never kept.
      if (response.indexing) this.timer = setTimeout(() => void this.run(page, append), INDEXING_RETRY_MS);
      else this.cache.set(key, response);
      if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
      this.apply(response, page, append);
    } catch (error) {
      if (isAbort(error) || id !== this.requestId) return;
      this.status = error instanceof ProxyRequestError && error.kind === 'offline' ? 'offline' : 'error';
    } finally {
      if (id === this.requestId) this.loadingMore = false;
    }
  }

  private apply(response: SearchResponse, page: number, append: boolean): void {
    this.results = append ? [...this.results, ...response.results] : response.results;
    this.count = response.count;
    this.indexing = response.indexing === true;
    this.nextPage = response.next ? page + 1 : null;
    this.status = this.results.length ? 'results' : 'empty';
    if (!append) this.activeIndex = this.results.length ? 0 : -1;
  }

  private retry = () => void this.run(1, false);
  private more = () => {
    if (this.nextPage) void this.run(this.nextPage, true);
  };

  private get options(): Option[] {
    const options: Option[] = [];
    for (const result of this.results) {
      const page = resultUrl(result);
      options.push({ id: `option-${options.length}`, url: page, result });
      for (const block of (result.blocks ?? []).slice(0, 3)) options.push({ id: `option-${options.length}`, url: `${page}#${encodeURIComponent(block.id)}`, result, block });
    }
    return options;
  }

  /** Keys anywhere in the dialog: Escape and Tab wherever focus is, the arrows and Enter in the field. */
  private onKeydown = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    if (event.key === 'Escape') {
      // Closed here, not by the dialog's own cancel, which a page handler could prevent; a search field's own Escape only clears it.
      event.preventDefault();
      swallowKeyup(event.key);
      void this.hide();
      return;
    }
    if (event.key === 'Tab') {
      this.cycleFocus(event);
      return;
    }
    if (event.composedPath()[0] !== this.field) return;
    if (this.status === 'idle') {
      this.onRecentKey(event);
      return;
    }
    const options = this.options;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!options.length) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.activeIndex = stepIndex(this.activeIndex, step, options.length);
      this.arrowed = true;
      void this.updateComplete.then(() => this.revealActive());
    } else if (event.key === 'Enter') {
      // Never submits a form around the element.
      event.preventDefault();
      const option = options[this.activeIndex] ?? options[0];
      if (option) this.select(option, event.ctrlKey || event.metaKey);
    }
  };

  /** In the empty dialog the arrows go through the recent searches and Enter runs the one reached; focus stays in the field. */
  private onRecentKey(event: KeyboardEvent): void {
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && this.recent.length) {
      event.preventDefault();
      this.recentIndex = stepIndex(this.recentIndex, event.key === 'ArrowDown' ? 1 : -1, this.recent.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = this.recent[this.recentIndex];
      if (item) this.runRecent(item);
    }
  }

  private runRecent(item: string): void {
    this.setQuery(item);
    this.field.setSelectionRange(item.length, item.length);
  }

  /** Tab and Shift+Tab go round the dialog's controls (the modal dialog alone would let focus leave for the browser's). */
  private cycleFocus(event: KeyboardEvent): void {
    const stops = [this.field, ...this.renderRoot.querySelectorAll<HTMLElement>('dialog button:not([disabled]), dialog input:not([disabled]), dialog doclens-settings')];
    const active = deepActiveElement() ?? this.field;
    // The settings menu's button is in the shadow tree of its own element.
    const current = stops.findIndex((stop) => stop === active || !!stop.shadowRoot?.contains(active));
    const last = stops.length - 1;
    const wraps = event.shiftKey ? current <= 0 : current === last || current === -1;
    if (!wraps) return;
    event.preventDefault();
    stops[event.shiftKey ? last : 0]!.focus();
  }

  /**
   * Focus stays in the dialog whatever the reader clicked (text, empty space, a button that goes away
   * once pressed): on the page body, the arrows, typing and Escape would stop working.
   */
  private keepFocusInside(): void {
    if (!this.open || !this.dialog?.open) return;
    const active = deepActiveElement();
    const inside = !!active && (this.contains(active) || this.renderRoot.contains(active));
    // Focus elsewhere than the body is the page's own business (an author's script moved it).
    if (inside ? !active.matches(':disabled') : active && active !== document.body) return;
    this.field.focus({ preventScroll: true });
  }

  /** A click anywhere in the dialog (a result, a button, text, empty space) leaves focus in the field, so the reader goes on typing; the checkbox takes it. */
  private onMousedown = (event: MouseEvent) => {
    const target = event.composedPath()[0];
    if (target === this.field || (target instanceof HTMLInputElement && (target.type === 'checkbox' || target.readOnly))) return;
    // A press on the result list's scroll bar (outside its client area) keeps its drag.
    if (target instanceof HTMLElement && target.scrollHeight > target.clientHeight && event.offsetX > target.clientWidth) return;
    event.preventDefault();
  };

  private onFocusout = () => {
    // Focus has moved by the time a task runs.
    setTimeout(() => this.keepFocusInside());
  };

  override updated(): void {
    if (!this.open) return;
    const s = this.strings;
    this.field.setAttribute('aria-label', s.searchLabel);
    this.field.placeholder = this.placeholder ?? s.searchPlaceholder;
    this.field.setAttribute('aria-expanded', String(this.status === 'results'));
    this.field.setAttribute('aria-busy', String(this.status === 'loading'));
    const active = this.options[this.activeIndex];
    if (canReferToShadow) {
      (this.renderRoot as ShadowRoot & { referenceTarget: string | null }).referenceTarget = active?.id ?? null;
      if (active) this.field.setAttribute('aria-activedescendant', this.id);
      else this.field.removeAttribute('aria-activedescendant');
    }
    // The list is inside the host; a reference into a shadow root can only name the host.
    this.field.setAttribute('aria-controls', this.id);
    this.keepFocusInside();
  }

  /** Scrolls the result list (never the page behind the dialog, as scrollIntoView would) to the active option. */
  private revealActive(): void {
    const option = this.renderRoot.querySelector<HTMLElement>('[role="option"][aria-selected="true"]');
    const list = this.renderRoot.querySelector<HTMLElement>('.body');
    if (!option || !list) return;
    const shown = list.getBoundingClientRect();
    const box = option.getBoundingClientRect();
    if (box.top < shown.top) list.scrollTop -= shown.top - box.top;
    else if (box.bottom > shown.bottom) list.scrollTop += box.bottom - shown.bottom;
  }

  private onOptionClick(event: MouseEvent, option: Option): void {
    if (event.button !== 0) return;
    event.preventDefault();
    this.select(option, event.ctrlKey || event.metaKey || event.shiftKey);
  }

  /** The destination, with the searched words for the page to highlight. */
  private destination(option: Option): string {
    const words = this.query.trim();
    if (this.noHighlight || !words) return option.url;
    const url = new URL(option.url, window.location.href);
    url.searchParams.set(HIGHLIGHT_PARAM, words);
    return url.href;
  }

  private select(option: Option, newTab: boolean): void {
    const url = this.destination(option);
    const event = new CustomEvent('doclens-search-select', {
      bubbles: true,
      composed: true,
      cancelable: true,
      detail: { result: option.result, block: option.block, url, newTab },
    });
    this.saveRecent(this.query.trim());
    if (!this.dispatchEvent(event)) return;
    if (newTab) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    this.leavingForResult = true;
    void this.hide();
    window.location.assign(url);
  }

  private get recentKey(): string {
    return `doclens:recent:${this.project ?? 'all'}`;
  }

  private loadRecent(): string[] {
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(this.recentKey) ?? '[]');
      return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string').slice(0, RECENT_LIMIT) : [];
    } catch {
      return [];
    }
  }

  private storeRecent(items: string[]): void {
    this.recent = items;
    this.recentIndex = -1;
    try {
      localStorage.setItem(this.recentKey, JSON.stringify(items));
    } catch {
      // Storage may be full or blocked; recent searches are a convenience.
    }
  }

  private saveRecent(query: string): void {
    if (query.length < this.minLength) return;
    this.storeRecent([query, ...this.loadRecent().filter((item) => item !== query)].slice(0, RECENT_LIMIT));
  }

  private toggleSubprojects = (event: Event) => {
    this.includeSubprojects = (event.target as HTMLInputElement).checked;
    this.schedule();
  };

  override render(): TemplateResult {
    const s = this.strings;
    const shortcut = commandKLabel();
    return html`
      ${this.noTrigger
        ? nothing
        : html`<button class="trigger" part="trigger" type="button" aria-haspopup="dialog" aria-keyshortcuts="/ Control+K Meta+K" @click=${() => void this.show()}>
            ${searchIcon}<span>${this.placeholder ?? s.searchButton}</span>${this.noHotkeys ? nothing : html`<kbd>${shortcut}</kbd>`}
          </button>`}
      <dialog
        part="dialog"
        aria-label=${s.searchLabel}
        @close=${this.onClose}
        @keydown=${this.onKeydown}
        @focusout=${this.onFocusout}
        @mousedown=${this.onMousedown}
        @click=${(event: MouseEvent) => event.target === this.dialog && void this.hide()}
      >
        ${this.open ? this.renderDialog(s) : nothing}
      </dialog>
    `;
  }

  private renderDialog(s: Strings): TemplateResult {
    const options = this.options;
    const active = options[this.activeIndex];
    return html`
      <div class="bar">
        ${this.status === 'loading' ? html`<span class="spinner" aria-hidden="true"></span>` : searchIcon}
        <slot name="input"></slot>
        ${this.query.trim()
          ? html`<button class="copy" type="button" aria-label=${s.copyLink} title=${s.copyLink} @click=${this.copyLink}>${linkIcon}</button>`
          : nothing}
        <doclens-settings exportparts="settings, settings-menu, setting"></doclens-settings>
        <button class="close" type="button" @click=${() => void this.hide()}><kbd aria-hidden="true">Esc</kbd><span class="visually-hidden">${s.close}</span></button>
      </div>
      ${this.renderSharedLink(s)}
      ${this.project
        ? html`<div class="filters">
            <span>${format(s.searchingIn, this.searchedNames ?? { project: this.project, version: this.version ?? '' })}</span>
            <label><input type="checkbox" .checked=${this.includeSubprojects} @change=${this.toggleSubprojects} />${s.includeSubprojects}</label>
          </div>`
        : nothing}
      <div class="body">
        ${this.renderBody(s, options)}
      </div>
      <div class="visually-hidden" role="status" aria-live="polite">${this.announcement(s, active)}</div>
      <footer>${s.keyboardHelp}</footer>
    `;
  }

  private renderSharedLink(s: Strings): TemplateResult | typeof nothing {
    const shared = this.sharedLink;
    if (!shared) return nothing;
    if (shared.copied) return html`<div class="shared" role="status">${s.linkCopied}</div>`;
    return html`<div class="shared"><label>${s.copyLinkByHand} <input type="text" readonly .value=${shared.url} /></label></div>`;
  }

  private announcement(s: Strings, active: Option | undefined): string {
    if (this.status === 'idle' && this.recentIndex >= 0) return this.recent[this.recentIndex] ?? '';
    if (this.arrowed && active && !canReferToShadow) return active.block?.title ?? active.block?.name ?? active.result.title ?? '';
    if (this.status === 'results') return this.count === 1 ? s.resultCountOne : format(s.resultCount, { count: this.count });
    if (this.status === 'empty') return this.indexing ? s.stillIndexing : format(s.noResults, { query: this.query.trim() });
    if (this.status === 'error') return s.searchFailed;
    if (this.status === 'offline') return s.offline;
    return '';
  }

  private renderBody(s: Strings, options: Option[]): TemplateResult {
    switch (this.status) {
      case 'idle':
        return this.renderRecent(s);
      case 'loading':
        if (!this.results.length) return html`<div class="state" part="state">${s.loading}</div>`;
        return this.renderResults(s, options);
      case 'empty':
        if (this.indexing) return html`<div class="state" part="state">${s.stillIndexing}</div>`;
        return html`<div class="state" part="state"><strong>${format(s.noResults, { query: this.query.trim() })}</strong>${s.noResultsHint}</div>`;
      case 'error':
        return html`<div class="state error" part="state"><strong>${s.searchFailed}</strong><button class="action" type="button" @click=${this.retry}>${s.retry}</button></div>`;
      case 'offline':
        return html`<div class="state error" part="state"><strong>${s.offline}</strong><button class="action" type="button" @click=${this.retry}>${s.retry}</button></div>`;
      default:
        return this.renderResults(s, options);
    }
  }

  private renderRecent(s: Strings): TemplateResult {
    if (!this.recent.length) return html`<div class="state" part="state">${s.noRecent}</div>`;
    return html`
      <div class="recent-head"><span id="recent-label">${s.recentSearches}</span><button type="button" @click=${() => this.storeRecent([])}>${s.clearRecent}</button></div>
      <ul class="recent" aria-labelledby="recent-label">
        ${this.recent.map(
          (item, index) => html`<li ?data-active=${index === this.recentIndex}>
            <button class="query" type="button" @click=${() => this.runRecent(item)}>${item}</button>
            <button class="remove" type="button" aria-label=${format(s.removeRecent, { query: item })} @click=${() => this.storeRecent(this.recent.filter((other) => other !== item))}>✕</button>
          </li>`,
        )}
      </ul>
    `;
  }

  private renderResults(s: Strings, options: Option[]): TemplateResult {
    // Results from elsewhere than the project and version searched say where they are from.
    const elsewhere = (result: SearchResult) => result.project.slug !== this.project || (this.version !== undefined && result.version.slug !== this.version);
    let index = 0;
    return html`
      ${this.indexing ? html`<div class="state" part="state">${s.stillIndexing}</div>` : nothing}
      <ul role="listbox" id="results" part="results" aria-label=${s.searchLabel}>
        ${this.results.map((result) => {
          const pageOption = options[index++]!;
          const sections = (result.blocks ?? []).slice(0, 3).map(() => options[index++]!);
          return html`
            ${this.renderOption(pageOption, html`
              <span class="title">${highlighted(result.highlights?.title?.[0], result.title ?? '')}${elsewhere(result) ? html`<span class="badge">${result.project.alias ?? result.project.slug} · ${result.version.slug}</span>` : nothing}</span>
              <span class="path">${breadcrumb(result.path)}</span>`)}
            ${sections.map((option) => {
              const block = option.block!;
              // Talking to a hosting service directly, fields may be missing: nothing here may throw.
              const title = block.type === 'domain' ? block.highlights?.name?.[0] : block.highlights?.title?.[0];
              return this.renderOption(option, html`
                <span class="title hit">${highlighted(title, block.title ?? block.name ?? '')}</span>
                <span class="snippet">${highlighted(block.highlights?.content?.[0], (block.content ?? '').slice(0, 200))}</span>`, 'section');
            })}
          `;
        })}
      </ul>
      ${this.nextPage
        ? html`<button class="action more" type="button" ?disabled=${this.loadingMore} @click=${this.more}>${this.loadingMore ? s.loading : s.moreResults}</button>`
        : nothing}
    `;
  }

  private renderOption(option: Option, content: TemplateResult, kind = 'page'): TemplateResult {
    const index = Number(option.id.slice('option-'.length));
    return html`<li role="presentation">
      <a
        id=${option.id}
        class=${kind}
        role="option"
        part="option"
        href=${this.destination(option)}
        tabindex="-1"
        aria-selected=${index === this.activeIndex ? 'true' : 'false'}
        @click=${(event: MouseEvent) => this.onOptionClick(event, option)}
        @pointermove=${() => {
          if (this.activeIndex !== index) this.activeIndex = index;
        }}
        >${content}</a
      >
    </li>`;
  }
}

/** API highlight markup (escaped text with `<span>` around matches), sanitized; plain text otherwise. */
function highlighted(markup: string | undefined, text: string): unknown {
  return markup ? unsafeHTML(sanitizeHighlight(markup)) : text;
}

function resultUrl(result: SearchResult): string {
  const domain = /^https?:\/\//.test(result.domain) ? result.domain : `https://${result.domain}`;
  return `${domain.replace(/\/$/, '')}${result.path.startsWith('/') ? '' : '/'}${result.path}`;
}

function deepActiveElement(): HTMLElement | undefined {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : undefined;
}

if (!customElements.get('doclens-search')) customElements.define('doclens-search', DoclensSearch);

declare global {
  interface HTMLElementTagNameMap {
    'doclens-search': DoclensSearch;
  }
}
