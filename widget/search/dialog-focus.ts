import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { swallowKeyup, takeKey } from '../shared/hotkeys.ts';

/** Focus inside the search dialog: where Tab goes, where focus returns, what a click may take it from. */

/** The focused element, inside shadow roots too. */
export function deepActiveElement(): HTMLElement | undefined {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : undefined;
}

/**
 * Gives focus back to `element` without the page reacting as to a reader's focus: a theme opens its
 * search overlay when its box gets focus, a preview opens on a focused link. Focus events are
 * dispatched during `focus()`, so listeners on the window, capturing, stop them before the element's own.
 */
export function focusQuietly(element: HTMLElement): void {
  const quiet = (event: Event) => {
    if (event.target === element) event.stopImmediatePropagation();
  };
  for (const type of ['focus', 'focusin']) window.addEventListener(type, quiet, true);
  try {
    element.focus({ preventScroll: true });
  } finally {
    for (const type of ['focus', 'focusin']) window.removeEventListener(type, quiet, true);
  }
}

/** Tab and Shift+Tab go round the dialog's controls (the modal dialog alone would let focus leave for the browser's). */
function cycleFocus(event: KeyboardEvent, field: HTMLElement, root: ParentNode): void {
  const stops = [
    field,
    ...root.querySelectorAll<HTMLElement>('dialog button:not([disabled]), dialog input:not([disabled]), dialog doclens-settings'),
  ];
  const active = deepActiveElement() ?? field;
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
function keepFocusInside(host: HTMLElement, root: ParentNode, field: HTMLElement): void {
  const active = deepActiveElement();
  const inside = !!active && (host.contains(active) || root.contains(active));
  // Focus elsewhere than the body is the page's own business (an author's script moved it).
  if (inside ? !active.matches(':disabled') : active && active !== document.body) return;
  field.focus({ preventScroll: true });
}

/**
 * A press that may take focus from the field: on it, on a checkbox, on a text to copy, or on a list's scroll bar
 * (which keeps its drag).
 */
function pressKeepsItsFocus(event: MouseEvent, field: HTMLElement): boolean {
  const target = event.composedPath()[0];
  if (target === field || (target instanceof HTMLInputElement && (target.type === 'checkbox' || target.readOnly))) return true;
  // The scroll bar is outside the client area.
  return target instanceof HTMLElement && target.scrollHeight > target.clientHeight && event.offsetX > target.clientWidth;
}

/** Scrolls `list` (never the page behind the dialog, as scrollIntoView would) to show `option`. */
export function reveal(option: HTMLElement | null, list: HTMLElement | null): void {
  if (!option || !list) return;
  const shown = list.getBoundingClientRect();
  const box = option.getBoundingClientRect();
  if (box.top < shown.top) list.scrollTop -= shown.top - box.top;
  else if (box.bottom > shown.bottom) list.scrollTop += box.bottom - shown.bottom;
}

/** The search element, as its dialog's focus sees it. */
export interface FocusedDialog extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: ParentNode;
  hide(): Promise<void>;
}

interface DialogParts {
  field: HTMLInputElement;
  /** The dialog is open and shown (not still opening). */
  shown(): boolean;
  /** Keys typed in the field (the arrows and Enter). */
  fieldKey(event: KeyboardEvent): void;
}

/**
 * Keeps focus in the search dialog and its keys to it: Escape closes it and Tab goes round its controls
 * wherever focus is, any click leaves focus in the field, and focus lost to the page comes back.
 */
export class DialogFocusController implements ReactiveController {
  constructor(
    private readonly host: FocusedDialog,
    private readonly parts: DialogParts,
  ) {
    host.addController(this);
  }

  private get field(): HTMLInputElement {
    return this.parts.field;
  }

  hostUpdated(): void {
    this.keepFocusInside();
  }

  readonly onKeydown = (event: KeyboardEvent) => {
    if (event.isComposing) return;
    if (event.key === 'Escape') {
      // Closed here, not by the dialog's own cancel, which a page handler could prevent; a search field's own Escape only clears it.
      takeKey(event);
      swallowKeyup(event.key);
      void this.host.hide();
    } else if (event.key === 'Tab') cycleFocus(event, this.field, this.host.renderRoot);
    else if (event.composedPath()[0] === this.field) this.parts.fieldKey(event);
  };

  /**
   * A click anywhere in the dialog (a result, a button, text, empty space) leaves focus in the field, so the
   * reader goes on typing; the checkbox takes it.
   */
  readonly onMousedown = (event: MouseEvent) => {
    if (!pressKeepsItsFocus(event, this.field)) event.preventDefault();
  };

  readonly onFocusout = () => {
    // Focus has moved by the time a task runs.
    setTimeout(() => this.keepFocusInside());
  };

  private keepFocusInside(): void {
    if (this.parts.shown()) keepFocusInside(this.host, this.host.renderRoot, this.field);
  }
}
