import { LitElement, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { DoclensEventDetail, DoclensEventName } from './events.ts';
import { languageOf, stringsFor, type Strings } from './i18n.ts';
import { ColorSchemeController } from './theme.ts';

/** The strings in the language of the page around an element, looked up each time it is connected. */
export class StringsController implements ReactiveController {
  /** English until the host is connected. */
  current: Strings = stringsFor('en');

  constructor(
    host: ReactiveControllerHost,
    /** The element whose language applies (the host itself, or the doclens element around it). */
    private readonly languageElement: () => Element,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.current = stringsFor(languageOf(this.languageElement()));
  }
}

/**
 * What every doclens element shares: the colour scheme of the page's theme, strings in the page's
 * language, and events dispatched through one typed map.
 */
export class DoclensElement extends LitElement {
  private readonly language = new StringsController(this, () => this.languageElement());

  constructor() {
    super();
    new ColorSchemeController(this);
  }

  /** The strings to show, in the page's language. */
  protected get strings(): Strings {
    return this.language.current;
  }

  /** The element whose language picks the strings. */
  protected languageElement(): Element {
    return this;
  }

  /** Dispatches one of the doclens events (bubbling, across shadow roots); false when a listener cancelled it. */
  protected emit<Name extends DoclensEventName>(name: Name, detail: DoclensEventDetail<Name>, { cancelable = false } = {}): boolean {
    return this.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, cancelable, detail }));
  }
}

/** Defines a custom element unless the page already has one by that name (doclens loaded twice). */
export function define(tag: keyof HTMLElementTagNameMap, element: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
