import type { DoclensSearch } from '../search/doclens-search.ts';
import { isSearchShortcut } from '../shared/hotkeys.ts';
import { loadCode } from './code.ts';

/**
 * Opens the search dialog from the first moment, its code loaded on demand. Until that code is
 * there the shortcuts are caught here; from a shortcut (or a theme's search box handing over) until
 * the dialog's field has focus, the keys typed are kept here and handed to the dialog.
 */
export class SearchOpener {
  /** The words for the dialog, while it opens; undefined otherwise. */
  private typed?: string;
  /** Where focus goes back when the dialog opening now closes (a theme's box, which lost it to the handover). */
  private returnTo?: HTMLElement | undefined;
  private opening?: Promise<void>;

  /** `mount` puts the (not yet upgraded) element in the page, or returns the one there. */
  constructor(private readonly mount: () => HTMLElement) {}

  /** The element, put in the page on the first call. */
  element(): HTMLElement {
    return this.mount();
  }

  /** `open` is reflected, so it can be read before the element's code is there. */
  get isOpen(): boolean {
    return this.element().hasAttribute('open');
  }

  /**
   * Opens the dialog (with `words` searched); resolves once its field has focus. Closed, it gives focus to `returnTo`
   * (by default what had it).
   */
  show(words?: string, returnTo?: HTMLElement): Promise<void> {
    const search = this.element();
    if (search.hasAttribute('open') && customElements.get('doclens-search')) return (search as DoclensSearch).show(words);
    this.returnTo ??= returnTo;
    // While it opens, the words asked for first and every key typed since are here already: a later
    // call (a theme box's Enter, its form's submit) must not put older words back.
    if (this.typed === undefined) this.typed = words ?? '';
    this.opening ??= this.openWithTyped().finally(() => {
      this.opening = undefined;
      this.typed = undefined;
      this.returnTo = undefined;
    });
    return this.opening;
  }

  /** Opens the dialog as `show` does, with `key` typed after `words`; while it opens, `key` goes after the keys it has. */
  showTyped(words: string, key: string, returnTo?: HTMLElement): Promise<void> {
    if (this.typed !== undefined) this.typed += key;
    return this.show(words + key, returnTo);
  }

  /** Catches the shortcuts until the element's own take over, and the keys typed while it opens. */
  listen(): void {
    // Capturing on window runs before the theme's shortcuts, as the element's own do.
    window.addEventListener('keydown', this.onKeydown, { capture: true });
    window.addEventListener('keypress', this.onKeyPressOrUp, { capture: true });
    window.addEventListener('keyup', this.onKeyPressOrUp, { capture: true });
  }

  /** Keys the reader types while the dialog opens; keys scripts dispatch (a theme's Escape to close its search) pass. */
  private opensFor(event: KeyboardEvent): boolean {
    return this.typed !== undefined && event.isTrusted;
  }

  private readonly onKeydown = (event: KeyboardEvent) => {
    if (this.typed !== undefined) {
      if (this.opensFor(event)) this.keep(event, this.typed);
      return;
    }
    if (customElements.get('doclens-search') || !isSearchShortcut(event)) return;
    event.preventDefault();
    event.stopPropagation();
    void this.show();
  };

  /** Keeps a key typed while the dialog opens from the page's handlers, and its text for the dialog; Escape cancels. */
  private keep(event: KeyboardEvent, typed: string): void {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (event.key === 'Escape') this.typed = undefined;
    else if (event.key === 'Backspace') this.typed = typed.slice(0, -1);
    else if ([...event.key].length === 1) this.typed = typed + event.key;
    else return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  private readonly onKeyPressOrUp = (event: KeyboardEvent) => {
    if (this.opensFor(event)) event.stopImmediatePropagation();
  };

  private async openWithTyped(): Promise<void> {
    try {
      await loadCode('search');
      await customElements.whenDefined('doclens-search');
      const search = this.element() as DoclensSearch;
      // Until the field has focus, keys typed meanwhile come here: the dialog takes them in rounds.
      let handed: string | undefined;
      while (this.typed !== undefined && this.typed !== handed) {
        handed = this.typed;
        await search.show(handed || undefined, this.returnTo);
      }
    } catch {
      console.warn('doclens: the search code did not load');
    }
  }
}
