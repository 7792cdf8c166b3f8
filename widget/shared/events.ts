import type { SearchBlock, SearchResult } from '../../contract/index.ts';
import type { ReaderSettings } from '../settings/store.ts';

/**
 * Every event the doclens elements dispatch (all bubble and cross shadow roots; `-select` events can
 * be cancelled to navigate yourself). Declared once, so that `emit` is checked against it and an
 * author's `element.addEventListener('doclens-search-select', (event) => event.detail.url)` is typed.
 */
export interface DoclensEventMap {
  /** The search dialog opened. */
  'doclens-search-open': CustomEvent<null>;
  /** The search dialog closed. */
  'doclens-search-close': CustomEvent<null>;
  /** A result was chosen (cancelable). */
  'doclens-search-select': CustomEvent<{ result: SearchResult; block: SearchBlock | undefined; url: string; newTab: boolean }>;
  /** A preview opened for `link`; `url` is the documentation address it shows. */
  'doclens-preview-show': CustomEvent<{ link: HTMLAnchorElement; url: string | undefined }>;
  /** The preview of `link` closed. */
  'doclens-preview-hide': CustomEvent<{ link: HTMLAnchorElement }>;
  /** A version or language was chosen (cancelable). */
  'doclens-versions-select': CustomEvent<{ kind: 'version' | 'language'; slug: string; url: string }>;
  /** The matches bar moved to a highlighted word. */
  'doclens-matches-step': CustomEvent<{ index: number; total: number; mark: HTMLElement }>;
  /** The matches bar removed the highlights. */
  'doclens-matches-clear': CustomEvent<null>;
}

/** Events on `window` alone. */
export interface DoclensWindowEventMap {
  /** The reader's settings changed, in this tab or another; `detail` holds them all. */
  'doclens-settings-change': CustomEvent<ReaderSettings>;
}

export type DoclensEventName = keyof DoclensEventMap;
export type DoclensEventDetail<Name extends DoclensEventName> = DoclensEventMap[Name]['detail'];

declare global {
  // Listeners on any element, the document or the window (the events bubble up to them) get the detail's type.
  interface HTMLElementEventMap extends DoclensEventMap {}
  interface DocumentEventMap extends DoclensEventMap {}
  interface WindowEventMap extends DoclensEventMap, DoclensWindowEventMap {}
}
