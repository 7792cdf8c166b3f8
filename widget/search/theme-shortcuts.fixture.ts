/**
 * Key handlers as real documentation themes install them (read from their bundled scripts), for tests that
 * check that keys typed in doclens reach doclens alone. Each records what it did; a theme acting on a key
 * typed in doclens is a failure.
 */
export interface ThemeShortcuts {
  /** What the handlers did, in order ("sphinx: focused its box on /"). */
  actions: string[];
  remove(): void;
}

const FORM_CONTROLS = /^(INPUT|SELECT|TEXTAREA|BUTTON)$/;

/** mkdocs-material's test: an element that takes the key itself (any input but a radio button, a select, a textarea, editable content). */
function takesKeys(element: Element | null): boolean {
  if (!element) return false;
  if (element.tagName === 'INPUT') return (element as HTMLInputElement).type !== 'radio';
  return /^(SELECT|TEXTAREA)$/.test(element.tagName) || (element as HTMLElement).isContentEditable;
}

/**
 * Installs, on `win` and its document: Sphinx's doctools/sphinx_highlight handler (document, bubbling,
 * bails when `document.activeElement` is a form control: "/" focuses the theme's box, Escape is taken,
 * the arrows go to the previous or next page), the MkDocs theme's (document, bubbling, bails when the
 * event's target is a form control: n and p navigate, s opens its search, ? its help), mkdocs-material's
 * (window, bubbling, bails when the active element takes keys: f, s and / focus its search, n, p, "." and
 * "," navigate), a handler that listens while capturing on the window (as pydata-sphinx-theme's does),
 * and keypress and keyup handlers on the document.
 */
export function installThemeShortcuts(win: Window, themeBox: HTMLInputElement): ThemeShortcuts {
  const doc = win.document;
  const actions: string[] = [];
  const navigate = (theme: string, where: string) => {
    actions.push(`${theme}: went to ${where}`);
    win.location.hash = where;
  };
  const focusBox = (theme: string, event: KeyboardEvent) => {
    event.preventDefault();
    themeBox.focus();
    actions.push(`${theme}: focused its box on ${event.key}`);
  };
  const sphinx = (event: KeyboardEvent) => {
    if (FORM_CONTROLS.test(doc.activeElement?.tagName ?? '')) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') navigate('sphinx', event.key === 'ArrowLeft' ? 'previous' : 'next');
    if (event.key === '/') focusBox('sphinx', event);
    if (event.key === 'Escape' && !event.shiftKey) {
      event.preventDefault();
      actions.push('sphinx: took Escape');
    }
  };
  const mkdocs = (event: KeyboardEvent) => {
    if (FORM_CONTROLS.test((event.target as Element).tagName)) return;
    // base.js reads key codes: n 78, p 80, s 83, ? 191.
    if (event.keyCode === 78) navigate('mkdocs', 'next');
    if (event.keyCode === 80) navigate('mkdocs', 'previous');
    if (event.keyCode === 83) focusBox('mkdocs', event);
    if (event.keyCode === 191) actions.push('mkdocs: opened its help');
  };
  const material = (event: KeyboardEvent) => {
    if (event.metaKey || event.ctrlKey || takesKeys(doc.activeElement)) return;
    if (event.key === 'f' || event.key === 's' || event.key === '/') focusBox('material', event);
    if (event.key === 'n' || event.key === '.') navigate('material', 'next');
    if (event.key === 'p' || event.key === ',') navigate('material', 'previous');
  };
  const capturing = (event: KeyboardEvent) => {
    if (takesKeys(doc.activeElement)) return;
    if (event.key.length === 1 || /^(Arrow|Enter|Escape|Tab)/.test(event.key)) actions.push(`capturing: saw ${event.key}`);
  };
  const other = (event: KeyboardEvent) => {
    if (!takesKeys(doc.activeElement)) actions.push(`${event.type}: saw ${event.key}`);
  };
  const listeners: [EventTarget, string, (event: KeyboardEvent) => void, boolean][] = [
    [doc, 'keydown', sphinx, false],
    [doc, 'keydown', mkdocs, false],
    [win, 'keydown', material, false],
    [win, 'keydown', capturing, true],
    [doc, 'keypress', other, false],
    [doc, 'keyup', other, false],
  ];
  for (const [target, type, listener, capture] of listeners) target.addEventListener(type, listener as EventListener, capture);
  return {
    actions,
    remove: () => {
      for (const [target, type, listener, capture] of listeners) target.removeEventListener(type, listener as EventListener, capture);
    },
  };
}
