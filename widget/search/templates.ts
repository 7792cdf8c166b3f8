import { html, nothing, type TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { commandKLabel } from '../shared/hotkeys.ts';
import { format, type Strings } from '../shared/i18n.ts';
import { sanitizeHighlight } from '../shared/sanitize.ts';
import { canReferToShadow } from './search-field.ts';
import { withoutRecent, type RecentSearches } from './recent.ts';
import {
  isElsewhere,
  pageTitle,
  resultGroups,
  rowLabel,
  sectionSnippet,
  rowTitle,
  type HighlightedText,
  type ResultRow,
} from './results.ts';
import type { ResultList } from './result-list.ts';
import type { SearchRequestController } from './search-request.ts';

const searchIcon = html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"
  aria-hidden="true"><circle cx="11" cy="11" r="7"></circle><path d="m20 20-3.5-3.5"></path></svg>`;

const linkIcon = html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"
  aria-hidden="true"><path d="M10 14a5 5 0 0 0 7 0l3-3a5 5 0 0 0-7-7l-1 1"></path>
  <path d="M14 10a5 5 0 0 0-7 0l-3 3a5 5 0 0 0 7 7l1-1"></path></svg>`;

/** What the dialog shows, and what its controls do. */
export interface SearchView {
  strings: Strings;
  request: SearchRequestController;
  recent: RecentSearches;
  /** The reader's words, trimmed. */
  words: string;
  project: string | undefined;
  version: string | undefined;
  /** "Searching Aurora 2.0", when a project is searched. */
  searchingIn: string | undefined;
  includeSubprojects: boolean;
  /** The project searched has subprojects to include (else no such choice is offered). */
  hasSubprojects: boolean;
  /** Titles of the pages above a row's page in the site, outermost first. */
  placeOf(row: ResultRow): string[];
  /** The link of "copy link to this search": copied, or shown to copy by hand when the clipboard refused it. */
  sharedLink: { url: string; copied: boolean } | undefined;
  list: ResultList;
  /** The row's link, with the searched words to highlight. */
  href(row: ResultRow): string;
  select(row: ResultRow, newTab: boolean): void;
  runRecent(item: string): void;
  copyLink(): void;
  setIncludeSubprojects(included: boolean): void;
  close(): void;
}

/** Between a letter's dot or underscore and the next letter (highlight tags around them aside): where a long name may break. */
const NAME_BREAK = /(?<=[\p{L}>][._])(?=[\p{L}<])/u;

/**
 * API highlight markup (escaped text with `<span>` around matches), sanitized; plain text otherwise. A
 * long name breaks at its dots and underscores (`<wbr>`), not in the middle of a word. The sanitized
 * markup has no attributes, so its dots and underscores are all text.
 */
function highlighted({ markup, text }: HighlightedText): unknown {
  if (markup) return unsafeHTML(sanitizeHighlight(markup).replace(new RegExp(NAME_BREAK, 'gu'), '<wbr>'));
  return text.split(NAME_BREAK).map((part, index) => (index ? html`<wbr>${part}` : part));
}

/** The button that opens the dialog, with the shortcut when there is one. */
export function renderTrigger(s: Strings, placeholder: string | undefined, hotkeys: boolean, open: () => void): TemplateResult {
  const shortcut = commandKLabel();
  return html`<button class="trigger" part="trigger" type="button" aria-haspopup="dialog"
    aria-keyshortcuts="/ Control+K Meta+K" @click=${open}>
    ${searchIcon}<span>${placeholder ?? s.searchButton}</span>${hotkeys && shortcut ? html`<kbd>${shortcut}</kbd>` : nothing}
  </button>`;
}

/** The dialog's content under its bar's field (slotted in from the light DOM). */
export function renderDialog(view: SearchView): TemplateResult {
  const s = view.strings;
  const shared = view.sharedLink;
  return html`
    <div class="bar">
      ${view.request.status === 'loading' ? html`<span class="spinner" part="spinner" aria-hidden="true"></span>` : searchIcon}
      <slot name="input"></slot>
      ${
        view.words
          ? html`<button class="copy" type="button" aria-label=${s.copyLink} title=${s.copyLink}
        @click=${() => view.copyLink()}>${linkIcon}</button>`
          : nothing
      }
      <doclens-settings exportparts="settings, settings-menu, setting"></doclens-settings>
      <button class="close" part="close" type="button" @click=${() => view.close()}><kbd aria-hidden="true">Esc</kbd><span
        class="label visually-hidden">${s.close}</span></button>
    </div>
    ${
      !shared
        ? nothing
        : shared.copied
          ? html`<div class="shared" part="shared-link" role="status">${s.linkCopied}</div>`
          : html`<div class="shared" part="shared-link"><label>${s.copyLinkByHand} <input type="text" readonly
            .value=${shared.url} /></label></div>`
    }
    ${
      view.searchingIn !== undefined
        ? html`<div class="filters" part="filters">
          <span>${view.searchingIn}</span>
          ${
            view.hasSubprojects
              ? html`<label><input type="checkbox" .checked=${view.includeSubprojects}
                  @change=${(event: Event) => view.setIncludeSubprojects((event.target as HTMLInputElement).checked)}
                />${s.includeSubprojects}</label>`
              : nothing
          }
        </div>`
        : nothing
    }
    <div class="body" part="body">${renderBody(view)}</div>
    <div class="visually-hidden" role="status" aria-live="polite">${announcement(view)}</div>
    <footer>${s.keyboardHelp}</footer>
  `;
}

/** What the live region says: the recent search or result reached, the count, or the trouble. */
function announcement(view: SearchView): string {
  const { strings: s, request, recent, list } = view;
  const active = list.active;
  if (request.status === 'idle' && recent.index >= 0) return recent.selected ?? '';
  if (list.arrowed && active && !canReferToShadow) return rowLabel(active);
  if (request.status === 'results') return request.count === 1 ? s.resultCountOne : format(s.resultCount, { count: request.count });
  if (request.status === 'empty') return request.indexing ? s.stillIndexing : format(s.noResults, { query: view.words });
  if (request.status === 'error') return s.searchFailed;
  if (request.status === 'offline') return s.offline;
  return '';
}

function renderBody(view: SearchView): TemplateResult {
  const { strings: s, request } = view;
  const failed = (message: string) =>
    html`<div class="state error" part="state error"><strong>${message}</strong><button class="action" type="button"
      @click=${() => request.retry()}>${s.retry}</button></div>`;
  switch (request.status) {
    case 'idle':
      return renderRecent(view);
    case 'loading':
      if (!request.results.length) return html`<div class="state" part="state">${s.loading}</div>`;
      return renderResults(view);
    case 'empty':
      if (request.indexing) return html`<div class="state" part="state">${s.stillIndexing}</div>`;
      return html`<div class="state" part="state"><strong>${format(s.noResults, { query: view.words })}</strong>${s.noResultsHint}</div>`;
    case 'error':
      return failed(s.searchFailed);
    case 'offline':
      return failed(s.offline);
    default:
      return renderResults(view);
  }
}

function renderRecent(view: SearchView): TemplateResult {
  const { strings: s, recent } = view;
  if (!recent.items.length) return html`<div class="state" part="state">${s.noRecent}</div>`;
  return html`
    <div class="recent-head" part="recent-head"><span id="recent-label">${s.recentSearches}</span><button
      part="recent-clear" type="button" @click=${() => recent.set([])}>${s.clearRecent}</button></div>
    <ul class="recent" part="recent" aria-labelledby="recent-label">
      ${recent.items.map(
        (item, index) => html`<li ?data-active=${index === recent.index}>
          <button class="query" part="recent-query" type="button" @click=${() => view.runRecent(item)}>${item}</button>
          <button class="remove" part="recent-remove" type="button"
            aria-label=${format(s.removeRecent, { query: item })} @click=${() => recent.set(withoutRecent(recent.items, item))}>✕</button>
        </li>`,
      )}
    </ul>
  `;
}

function renderResults(view: SearchView): TemplateResult {
  const { strings: s, request } = view;
  return html`
    ${request.indexing ? html`<div class="state" part="state">${s.stillIndexing}</div>` : nothing}
    <ul role="listbox" id="results" part="results" aria-label=${s.searchLabel}>
      ${resultGroups(request.results).map(({ page, lead, sections }) => {
        const result = page.result;
        // Results from elsewhere than the project and version searched say where they are from.
        const badge = isElsewhere(result, view.project, view.version)
          ? html`<span class="badge">${result.project.alias ?? result.project.slug} · ${result.version.slug}</span>`
          : nothing;
        return html`
          ${renderOption(
            view,
            page,
            html`
            <span class="title" part="option-title">${highlighted(pageTitle(result))}${badge}</span>
            ${renderPlace(view.placeOf(page))}
            ${lead ? html`<span class="snippet">${highlighted(sectionSnippet(lead))}</span>` : nothing}`,
          )}
          ${sections.map((section) =>
            renderOption(
              view,
              section,
              html`
            <span class="title hit" part="option-title">${highlighted(rowTitle(section))}</span>
            <span class="snippet">${highlighted(sectionSnippet(section.block!))}</span>`,
              'section',
            ),
          )}
        `;
      })}
    </ul>
    ${
      request.nextPage
        ? html`<button class="action more" part="more" type="button" ?disabled=${request.loadingMore}
          @click=${() => request.more()}>${request.loadingMore ? s.loading : s.moreResults}</button>`
        : nothing
    }
  `;
}
/** The page's place in the site ("User guide › Deploying"), where the page the dialog is on shows it. */
function renderPlace(titles: string[]): TemplateResult | typeof nothing {
  return titles.length ? html`<span class="path" part="option-place">${titles.join(' › ')}</span>` : nothing;
}

function renderOption(view: SearchView, row: ResultRow, content: TemplateResult, kind = 'page'): TemplateResult {
  return html`<li role="presentation">
    <a
      id=${row.id}
      class=${kind}
      role="option"
      part="option"
      href=${view.href(row)}
      tabindex="-1"
      aria-selected=${row.index === view.list.activeIndex ? 'true' : 'false'}
      @click=${(event: MouseEvent) => {
        if (event.button !== 0) return;
        event.preventDefault();
        view.select(row, event.ctrlKey || event.metaKey || event.shiftKey);
      }}
      @pointermove=${() => view.list.activate(row.index)}
      >${content}</a
    >
  </li>`;
}
