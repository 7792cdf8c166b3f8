import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { queryInFragment, withoutFragment, withQueryFragment } from './query-url.ts';

/** The search element, as the address sees it. */
export interface SearchAddressHost extends ReactiveControllerHost {
  readonly open: boolean;
  show(words?: string): Promise<void>;
  hide(): Promise<void>;
}

const href = () => window.location.href;
const replaceAddress = (url: string) => window.history.replaceState(window.history.state, '', url);

/**
 * The open search dialog's words in the page's address (`#doclens-q=`), in a history entry of its own:
 * Back closes the dialog, closing it otherwise takes the entry away, and an address with a search
 * (a link, Forward, Back to a page kept in memory) opens the dialog with it.
 */
export class SearchAddressController implements ReactiveController {
  /** A result is opening in this tab: the search keeps its history entry, so that Back from the result comes back to it. */
  leavingForResult = false;
  /** Settles once the address changes already asked for are done (going back is asynchronous). */
  settled: Promise<void> = Promise.resolve();
  /** The dialog's history entry is the current one. */
  private ownsEntry = false;
  /** Counts openings: an entry still waiting when its dialog closed and opened again is not pushed twice. */
  private openings = 0;
  /** The page entry's own scroll restoration, turned off while the dialog's entry is on top of it. */
  private pageScrollRestoration: ScrollRestoration = 'auto';

  constructor(
    private readonly host: SearchAddressHost,
    /** The words in the field now. */
    private readonly words: () => string,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('pageshow', this.onPageshow);
    window.addEventListener('hashchange', this.onHashchange);
  }

  hostDisconnected(): void {
    window.removeEventListener('pageshow', this.onPageshow);
    window.removeEventListener('hashchange', this.onHashchange);
    window.removeEventListener('popstate', this.onPopstate);
    // Taken out of the page while open: no search is left in the address.
    if (this.ownsEntry) replaceAddress(withoutFragment(href()));
    this.ownsEntry = false;
  }

  /** A link to a search opens it. */
  openLinked(): void {
    const linked = queryInFragment(href());
    if (linked !== undefined) void this.host.show(linked);
  }

  /** The words changed: the dialog's entry follows, without a new one. */
  follow(words: string): void {
    if (this.ownsEntry) replaceAddress(withQueryFragment(href(), words.trim()));
  }

  /**
   * The query goes into the URL in an entry of its own, so that Back closes the dialog. A URL that opened
   * the dialog is first put back as it was without the search, for Back to land on the page itself.
   */
  enter(): void {
    // After a Back still under way, which would otherwise take away the new entry.
    const opening = ++this.openings;
    this.settled = this.settled.then(() => {
      if (!this.host.open || opening !== this.openings) return;
      if (queryInFragment(href()) !== undefined) replaceAddress(withoutFragment(href()));
      // Coming back to the page's entry must not move the page to where it was when that entry was last saved.
      this.pageScrollRestoration = window.history.scrollRestoration;
      window.history.scrollRestoration = 'manual';
      window.history.pushState(window.history.state, '', withQueryFragment(href(), this.words().trim()));
      this.ownsEntry = true;
      window.addEventListener('popstate', this.onPopstate);
    });
  }

  /**
   * Closed otherwise than by Back, the dialog takes its entry away: same document, so no reload, and the scroll
   * position is the one it left.
   */
  leave(): void {
    window.removeEventListener('popstate', this.onPopstate);
    const owned = this.ownsEntry;
    this.ownsEntry = false;
    // Going back now would also cancel the navigation to the result.
    if (this.leavingForResult || queryInFragment(href()) === undefined) return;
    if (!owned) {
      // The dialog's entry was never pushed (closed while opening): a search in the address is not left behind.
      replaceAddress(withoutFragment(href()));
      return;
    }
    this.settled = new Promise((resolve) => {
      window.addEventListener(
        'popstate',
        () => {
          window.history.scrollRestoration = this.pageScrollRestoration;
          // Where Back landed on another search entry (a race of fast openings), the address is cleaned all the same.
          if (queryInFragment(href()) !== undefined) replaceAddress(withoutFragment(href()));
          resolve();
        },
        { once: true },
      );
      window.history.back();
    });
  }

  /** Back (or any move) to an entry without the search closes the dialog. */
  private onPopstate = () => {
    if (queryInFragment(href()) !== undefined) return;
    window.history.scrollRestoration = this.pageScrollRestoration;
    void this.host.hide();
  };

  /** A link to a search on the page already open (or Forward to one) changes only the fragment. */
  private onHashchange = (event: HashChangeEvent) => {
    const linked = queryInFragment(event.newURL);
    if (linked !== undefined && event.newURL === href() && !this.host.open) void this.host.show(linked);
  };

  /** Back from a result to a page kept in memory: the search it left from opens again. */
  private onPageshow = (event: PageTransitionEvent) => {
    this.leavingForResult = false;
    const linked = queryInFragment(href());
    if (event.persisted && linked !== undefined) void this.host.show(linked);
  };
}

/** The link of "copy link to this search": copied, or shown to copy by hand where the clipboard refused it. */
export class SharedLink {
  link?: { url: string; copied: boolean };

  constructor(private readonly host: ReactiveControllerHost & { readonly renderRoot: ParentNode }) {}

  /** Copies the address of a search for `words` (this page with them in its fragment), or shows it selected to copy by hand. */
  async copy(words: string): Promise<void> {
    const url = withQueryFragment(href(), words);
    try {
      // Undefined outside secure contexts; rejected when the page may not write the clipboard.
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      this.show({ url, copied: true });
    } catch {
      this.show({ url, copied: false });
      await this.host.updateComplete;
      const linkField = this.host.renderRoot.querySelector<HTMLInputElement>('.shared input');
      linkField?.focus();
      linkField?.select();
    }
  }

  /** Shows `link`, or nothing (the words changed, the dialog closed). */
  show(link?: { url: string; copied: boolean }): void {
    this.link = link;
    this.host.requestUpdate();
  }
}
