import type { Strings } from '../shared/i18n.ts';
import type { SearchStatus } from './search-request.ts';

/** Browsers where the field in the light DOM can refer to an option in the shadow tree (`referenceTarget`). */
export const canReferToShadow = typeof ShadowRoot !== 'undefined' && 'referenceTarget' in ShadowRoot.prototype;

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

/**
 * The search field: an `<input>` the element puts in its own light DOM while the dialog is open, so that
 * to the page's scripts the focused element is a text field.
 */
export function createSearchField(onInput: (value: string) => void): HTMLInputElement {
  const field = document.createElement('input');
  for (const [name, value] of Object.entries(FIELD_ATTRIBUTES)) field.setAttribute(name, value);
  field.addEventListener('input', () => onInput(field.value));
  return field;
}

/** What the combobox says of the list it controls. */
export interface FieldState {
  strings: Strings;
  /** The author's placeholder, if any. */
  placeholder: string | undefined;
  status: SearchStatus;
  /** The id of the active option in the shadow tree, if any. */
  activeId: string | undefined;
}

/** The combobox's ARIA state. The list is inside `host`: a reference into a shadow root can only name the host, which forwards it. */
export function describeField(field: HTMLInputElement, host: HTMLElement, state: FieldState): void {
  field.setAttribute('aria-label', state.strings.searchLabel);
  field.placeholder = state.placeholder ?? state.strings.searchPlaceholder;
  field.setAttribute('aria-expanded', String(state.status === 'results'));
  field.setAttribute('aria-busy', String(state.status === 'loading'));
  if (canReferToShadow && host.shadowRoot) {
    (host.shadowRoot as ShadowRoot & { referenceTarget: string | null }).referenceTarget = state.activeId ?? null;
    if (state.activeId) field.setAttribute('aria-activedescendant', host.id);
    else field.removeAttribute('aria-activedescendant');
  }
  field.setAttribute('aria-controls', host.id);
}
