import { registerStrings, type Strings } from '../shared/i18n.ts';
import { detectPage, HIGHLIGHT_SELECTOR, highlightSearchedTerms } from '../shared/page.ts';
import { loadWhenIdle, PARTS, preload } from './code.ts';
import { holdEarlyTaps } from './early-taps.ts';
import { queryInFragment } from '../search/query-url.ts';
import { onReaderSettingsChange, readerSettings } from '../settings/store.ts';
import { SearchOpener } from './search-opener.ts';
import { handOverThemeSearch, searchPageWords, themeSearchBoxes, watchThemeSearch } from './theme-search.ts';

export { registerStrings };

type Feature = 'search' | 'preview' | 'versions';
const FEATURES: readonly Feature[] = ['search', 'preview', 'versions'];

/** The package version, written in by the build. */
declare const __DOCLENS_VERSION__: string;

declare global {
  interface Window {
    doclens?: { version: string; registerStrings: typeof registerStrings };
  }
}

/** The tag that loaded doclens: the module tag (with `data-proxy` or `data-static`), or the classic script that imported it. */
function loaderScript(): HTMLScriptElement | null {
  return (
    document.querySelector<HTMLScriptElement>('script[data-proxy][src*="doclens"], script[data-static][src*="doclens"]') ??
    document.querySelector<HTMLScriptElement>('script[src*="doclens"][src$=".js"]')
  );
}

/** Strings an author supplies in `<script type="application/json" id="doclens-strings">{"fr": {…}}</script>`. */
function loadAuthorStrings(): void {
  const element = document.getElementById('doclens-strings');
  if (!element?.textContent) return;
  try {
    const tables = JSON.parse(element.textContent) as Record<string, Partial<Strings>>;
    for (const [language, strings] of Object.entries(tables))
      if (strings && typeof strings === 'object') registerStrings(language, strings);
  } catch {
    console.warn('doclens: #doclens-strings is not valid JSON; using the built-in strings');
  }
}

/** An element with the attributes that have a value. */
function element(name: string, attributes: Record<string, string | undefined>): HTMLElement {
  const created = document.createElement(name);
  for (const [attribute, value] of Object.entries(attributes))
    if (value !== undefined && value !== '') created.setAttribute(attribute, value);
  return created;
}

/** What the tag asks for, and where the page sits. */
function settingsOf(script: HTMLScriptElement | null) {
  const data = script?.dataset ?? {};
  const proxy = data.proxy ?? (script?.src ? new URL(script.src).origin : window.location.origin);
  const features = new Set(
    (data.features ?? FEATURES.join(',')).split(/[\s,]+/).filter((name): name is Feature => (FEATURES as readonly string[]).includes(name)),
  );
  const page = detectPage({ project: data.project, version: data.version, language: data.language });
  // `data-static`: the folder of the files `doclens build` wrote, which the elements read instead of a proxy;
  // empty, the script's own folder (a site generator writes one tag for pages at every depth).
  const staticFiles =
    data.static === undefined ? undefined : new URL(data.static || './', data.static ? document.baseURI : script?.src).href;
  return { data, proxy, staticFiles, features, page };
}
type Settings = ReturnType<typeof settingsOf>;

/** The search element, created on first need: the page's load event, or a shortcut before it. */
function searchMounter({ data, proxy, staticFiles, page }: Settings): () => HTMLElement {
  let search: HTMLElement | undefined;
  return () => {
    if (search) return search;
    search = element('doclens-search', { proxy, static: staticFiles, project: page.project, version: page.version });
    search.toggleAttribute('no-highlight', data.highlight === 'off');
    const target = data.searchTarget ? document.querySelector(data.searchTarget) : null;
    const boxes = themeSearchBoxes();
    // The theme's own search boxes open doclens instead (see `mount`): no new element in the layout, no
    // shift. Where none can be seen (a closed side menu on a phone), doclens' own trigger floats.
    const themeBoxShown = (shown: boolean) => {
      search!.toggleAttribute('no-trigger', !target && shown);
      search!.toggleAttribute('floating', !target && !shown);
    };
    themeBoxShown(!target && boxes.length > 0 && watchThemeSearch(boxes, themeBoxShown));
    (target ?? document.body).append(search);
    return search;
  };
}

/** The preview element's code loads on the first hover or focus of a link (it then previews that link). */
function loadPreviewOnFirstUse(): void {
  const events = ['pointerover', 'focusin'] as const;
  const onFirstUse = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest('a[href]')) return;
    for (const type of events) document.removeEventListener(type, onFirstUse, true);
    preload('preview');
  };
  for (const type of events) document.addEventListener(type, onFirstUse, true);
}

function mount(settings: Settings, search: SearchOpener | undefined): void {
  const { data, proxy, staticFiles, features, page } = settings;
  // Elements an author placed in the page get their code too.
  const parts = new Set(PARTS.filter((part) => document.querySelector(`doclens-${part}`)));
  if (search) {
    const boxes = themeSearchBoxes();
    search.element();
    if (boxes.length) handOverThemeSearch(search, boxes);
    const asked = searchPageWords(boxes);
    if (asked) void search.show(asked);
    parts.add('search');
  }
  if (features.has('preview')) {
    const preview = element('doclens-preview', {
      proxy,
      static: staticFiles,
      domains: data.previewDomains,
      selector: data.previewSelector,
      doctool: data.doctool,
      touch: data.previewTouch,
    });
    document.body.append(preview);
    // A reader who turned previews off gets no preview code, until they turn them on again.
    if (readerSettings().previews) {
      loadPreviewOnFirstUse();
      if (data.previewTouch !== 'off') holdEarlyTaps(preview);
      parts.add('preview');
    } else {
      const stop = onReaderSettingsChange(({ previews }) => {
        if (!previews) return;
        stop();
        preload('preview');
      });
    }
  }
  // The bar to step through the searched words, only when some are marked.
  if (document.querySelector(HIGHLIGHT_SELECTOR)) {
    document.body.append(element('doclens-matches', {}));
    parts.add('matches');
  }
  if (features.has('versions')) {
    const target = data.versionsTarget ? document.querySelector(data.versionsTarget) : null;
    const placement = target ? 'inline' : 'floating';
    const versions = element('doclens-versions', {
      proxy,
      static: staticFiles,
      project: page.project,
      version: page.version,
      notice: data.notice,
      placement,
    });
    // `data-switcher="always"`: the switcher shows on a site with one version and one language too.
    versions.toggleAttribute('always', data.switcher === 'always');
    (target ?? document.body).append(versions);
    parts.add('versions');
  }
  loadWhenIdle(parts);
}

/** Runs `task` once the document is parsed (at once when it already is). */
function whenParsed(task: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', task, { once: true });
  else task();
}

// Loading the script twice (or after an author defined the elements) must change nothing.
if (!window.doclens) {
  window.doclens = { version: __DOCLENS_VERSION__, registerStrings };
  const settings = settingsOf(loaderScript());
  if (settings.page.language && !document.documentElement.lang) document.documentElement.lang = settings.page.language;
  loadAuthorStrings();
  // Highlighting comes first, before the theme's own handlers (Sphinx's would take the parameter).
  if (settings.data.highlight !== 'off') whenParsed(() => highlightSearchedTerms());
  // The shortcuts work at once; a link to a search (`#doclens-q=`) opens the dialog as soon as the page is parsed.
  const search = settings.features.has('search') ? new SearchOpener(searchMounter(settings)) : undefined;
  search?.listen();
  if (search && queryInFragment(window.location.href) !== undefined) {
    whenParsed(() => {
      search.element();
      preload('search');
    });
  }
  // Mounting waits for the page's load event, so that doclens never delays it; nothing it adds moves the layout.
  if (document.readyState === 'complete') mount(settings, search);
  else window.addEventListener('load', () => mount(settings, search), { once: true });
}
