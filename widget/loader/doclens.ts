import { DoclensMatches } from '../matches/doclens-matches.ts';
import { DoclensPreview } from '../preview/doclens-preview.ts';
import { DoclensSearch } from '../search/doclens-search.ts';
import { registerStrings, type Strings } from '../shared/i18n.ts';
import { detectPage, HIGHLIGHT_SELECTOR, highlightSearchedTerms } from '../shared/page.ts';
import { DoclensVersions } from '../versions/doclens-versions.ts';
import { handOverThemeSearch, themeSearchBoxes } from './theme-search.ts';

export { DoclensMatches, DoclensPreview, DoclensSearch, DoclensVersions, registerStrings };

type Feature = 'search' | 'preview' | 'versions';
const FEATURES: readonly Feature[] = ['search', 'preview', 'versions'];

/** The package version, written in by the build. */
declare const __DOCLENS_VERSION__: string;

declare global {
  interface Window {
    doclens?: { version: string; registerStrings: typeof registerStrings };
  }
}

/** The tag that loaded doclens: the classic script itself, or the module tag with `data-proxy`. */
function loaderScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement) return current;
  return document.querySelector<HTMLScriptElement>('script[data-proxy][src*="doclens"]') ?? document.querySelector<HTMLScriptElement>('script[src*="doclens"][src$=".js"]');
}

/** Strings an author supplies in `<script type="application/json" id="doclens-strings">{"fr": {…}}</script>`. */
function loadAuthorStrings(): void {
  const element = document.getElementById('doclens-strings');
  if (!element?.textContent) return;
  try {
    const tables = JSON.parse(element.textContent) as Record<string, Partial<Strings>>;
    for (const [language, strings] of Object.entries(tables)) if (strings && typeof strings === 'object') registerStrings(language, strings);
  } catch {
    console.warn('doclens: #doclens-strings is not valid JSON; using the built-in strings');
  }
}

/** An element with the attributes that have a value. */
function element<K extends keyof HTMLElementTagNameMap>(name: K, attributes: Record<string, string | undefined>): HTMLElementTagNameMap[K] {
  const created = document.createElement(name);
  for (const [attribute, value] of Object.entries(attributes)) if (value !== undefined && value !== '') created.setAttribute(attribute, value);
  return created;
}

function mountSearch(script: HTMLScriptElement, proxy: string, project: string | undefined, version: string | undefined): void {
  const search = element('doclens-search', { proxy, project, version });
  search.toggleAttribute('no-highlight', script.dataset.highlight === 'off');
  const target = script.dataset.searchTarget ? document.querySelector(script.dataset.searchTarget) : null;
  if (target) {
    target.append(search);
    return;
  }
  // The theme's own search boxes open doclens instead: no new element in the layout, no shift.
  const boxes = themeSearchBoxes();
  if (boxes.length) {
    search.setAttribute('no-trigger', '');
    document.body.append(search);
    handOverThemeSearch(search, boxes);
    return;
  }
  search.setAttribute('floating', '');
  document.body.append(search);
}

function mount(script: HTMLScriptElement | null): void {
  const data = script?.dataset ?? {};
  const proxy = data.proxy ?? (script?.src ? new URL(script.src).origin : window.location.origin);
  const features = new Set((data.features ?? FEATURES.join(',')).split(/[\s,]+/).filter((name): name is Feature => (FEATURES as readonly string[]).includes(name)));
  const page = detectPage({ project: data.project, version: data.version, language: data.language });
  if (page.language && !document.documentElement.lang) document.documentElement.lang = page.language;
  loadAuthorStrings();
  if (features.has('search') && script) mountSearch(script, proxy, page.project, page.version);
  if (features.has('preview')) {
    document.body.append(element('doclens-preview', { proxy, domains: data.previewDomains, selector: data.previewSelector, doctool: data.doctool, touch: data.previewTouch }));
  }
  // The bar to step through the searched words, only when some are marked.
  if (document.querySelector(HIGHLIGHT_SELECTOR)) document.body.append(element('doclens-matches', {}));
  if (features.has('versions')) {
    const target = data.versionsTarget ? document.querySelector(data.versionsTarget) : null;
    const placement = target ? 'inline' : 'floating';
    (target ?? document.body).append(element('doclens-versions', { proxy, project: page.project, version: page.version, notice: data.notice, placement }));
  }
}

/** Runs `task` once the document is parsed (at once when it already is). */
function whenParsed(task: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', task, { once: true });
  else task();
}

// Loading the script twice (or after an author defined the elements) must change nothing.
if (!window.doclens) {
  window.doclens = { version: __DOCLENS_VERSION__, registerStrings };
  // A classic script is only "current" while it runs.
  const script = loaderScript();
  // Highlighting comes first, before the theme's own handlers (Sphinx's would take the parameter).
  if (script?.dataset.highlight !== 'off') whenParsed(() => highlightSearchedTerms());
  // Mounting waits for the page's load event, so that doclens never delays it; nothing it adds moves the layout.
  if (document.readyState === 'complete') mount(script);
  else window.addEventListener('load', () => mount(script), { once: true });
}
