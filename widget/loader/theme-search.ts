import { isTextField } from '../shared/hotkeys.ts';
import { isPinned } from '../shared/pinned.ts';
import type { SearchOpener } from './search-opener.ts';

/**
 * The theme's own search UI, found from what the markup means (a search landmark, a search field, a
 * form that submits to the site's search page), so that it works on themes nobody here has seen.
 */

/** How long after doclens closes the theme's search is kept closed (see `handOverThemeSearch`). */
const KEEP_CLOSED_MS = 500;
/** `search.html`, `/search/`, `search.php`, `/search/index.html`: the site's search page. */
const SEARCH_PAGE = /(^|\/)search(\.[a-z]+|\/(index\.[a-z]+)?)?$/i;

/** Whether a form submits to the site's search page: this page too, where this is it (Sphinx's `<form action="">`). */
function submitsToSearchPage(form: HTMLFormElement | null): boolean {
  return !!form && SEARCH_PAGE.test(new URL(form.action).pathname);
}

function isSearchBox(input: HTMLInputElement): boolean {
  if (input.type !== 'text' && input.type !== 'search') return false;
  // doclens' own field sits in the light DOM of its element.
  if (input.closest('doclens-search')) return false;
  const form = input.form;
  return (
    input.type === 'search' ||
    !!input.closest('[role="search"]') ||
    submitsToSearchPage(form) ||
    form?.getAttribute('name')?.toLowerCase() === 'search'
  );
}

function isVisible(element: Element): boolean {
  return element.checkVisibility({ visibilityProperty: true });
}

/** The theme's search boxes, those the reader sees first. */
export function themeSearchBoxes(): HTMLInputElement[] {
  const boxes = [...document.querySelectorAll('input')].filter(isSearchBox);
  return [...boxes.filter(isVisible), ...boxes.filter((box) => !isVisible(box))];
}

/**
 * The words this page was opened with when it is the site's search page: one of the theme's `boxes` submits its form
 * here, and the address holds the box's field (Sphinx's `search.html?q=…`, from a bookmark, another site or the
 * browser's own search). doclens then opens with them, as the box would have.
 */
export function searchPageWords(boxes: HTMLInputElement[]): string | undefined {
  const here = new URL(window.location.href);
  for (const box of boxes) {
    const form = box.form;
    if (!form || !box.name || new URL(form.action).pathname !== here.pathname) continue;
    const words = here.searchParams.get(box.name)?.trim();
    if (words) return words;
  }
  return undefined;
}

/**
 * Whether a tap on the middle of `element` reaches it: no box of the page's covers it there, and no container clips
 * it away (astropy's navigation bar, whose items wrap on a phone below its clipped bottom edge). doclens' own elements
 * do not count. Off the screen, or under a box pinned to the viewport while the page is scrolled, it cannot be told
 * where the page's top would put it: taken as reached.
 */
function isReached(element: Element): boolean {
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return true;
  const hit = document.elementsFromPoint(x, y).find((candidate) => !candidate.localName.startsWith('doclens-'));
  // A label laid over its field (a placeholder drawn by the theme) passes the tap on to it.
  if (!hit || element.contains(hit) || hit.closest('label')?.control === element) return true;
  return window.scrollY > 0 && isPinned(hit) && !isPinned(element);
}

/**
 * Whether the reader can see and tap `element` from the top of the page: displayed, visible, not off the side of
 * the screen (a closed side menu), within the page's first screen or pinned to the viewport (a phone's layout puts
 * a sidebar's box halfway down the page or at its end: no way to search, there), and not covered or clipped.
 */
function canBeSeen(element: Element): boolean {
  if (!isVisible(element)) return false;
  const box = element.getBoundingClientRect();
  const nearTop = box.top + window.scrollY < window.innerHeight || isPinned(element);
  return box.width > 0 && box.right > 0 && box.left < document.documentElement.clientWidth && nearTop && isReached(element);
}

/**
 * Whether the reader sees a way to the theme's search (one of its `boxes`, or a control that opens
 * the container holding one), now; `shown` is called again whenever that changes. Scrolled out of
 * view still counts as there, if it is near the page's top.
 */
export function watchThemeSearch(boxes: HTMLInputElement[], shown: (visible: boolean) => void): boolean {
  const ways = [...boxes, ...searchOpeners(boxes)];
  const seen = () => ways.some(canBeSeen);
  let last = seen();
  const report = () => {
    const visible = seen();
    if (visible === last) return;
    last = visible;
    shown(visible);
  };
  // Vertically the margin takes in the whole page: scrolling is no reason for a trigger to come and go.
  const observer = new IntersectionObserver(report, { rootMargin: '100000px 0px' });
  for (const way of ways) observer.observe(way);
  // Hidden with visibility, or moved by a transition, without crossing the edge: seen once the layout settles.
  window.addEventListener('resize', report);
  document.addEventListener('transitionend', report, true);
  return last;
}

/** Controls that reveal a hidden container holding a search box (a navigation bar's "Search" opening a modal). */
export function searchOpeners(boxes: HTMLInputElement[]): HTMLElement[] {
  // Labels for the checkboxes that show the search, outside the search itself (its overlay, its "back" button).
  const toggles = new Set(boxes.flatMap(searchToggles));
  const toggleLabels = [...document.querySelectorAll('label')].filter(
    (label) =>
      toggles.has(label.control as HTMLInputElement) &&
      !boxes.some((box) => (box.closest('dialog, [role="dialog"]') ?? box.form)?.contains(label)),
  );
  const revealing = [...document.querySelectorAll<HTMLElement>('[data-target], [data-bs-target], [aria-controls], a[href^="#"]')].filter(
    (control) => {
      const reference =
        control.getAttribute('data-target') ??
        control.getAttribute('data-bs-target') ??
        control.getAttribute('aria-controls') ??
        control.getAttribute('href') ??
        '';
      const target = document.getElementById(reference.replace(/^#/, ''));
      // A visible target (a skip link's main content) is not revealed by the control.
      return !!target && !isVisible(target) && boxes.some((box) => target.contains(box));
    },
  );
  return [...toggleLabels, ...revealing];
}

/**
 * Closes the theme's own search UI around `box`: its overlay or modal would stay open behind doclens
 * (and a modal's focus trap would take focus back from it).
 */
function closeThemeSearch(box: HTMLInputElement): void {
  // Themes close their search overlay or modal on Escape in their box. Their other key handlers leave it
  // alone only while a text field has focus (the box, or doclens' field); on the page, Sphinx's would act.
  if (isTextField(box.ownerDocument.activeElement ?? undefined))
    box.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', keyCode: 27, bubbles: true, cancelable: true, composed: true }),
    );
  const dialog = box.closest('dialog');
  if (dialog?.open) dialog.close();
  const popover = box.closest<HTMLElement>('[popover]');
  if (popover?.matches(':popover-open')) popover.hidePopover();
  uncheck(searchToggles(box));
  // doclens gives focus back to the box when it closes, quietly (see focusQuietly): themes open their search on focus.
  box.blur();
}

function uncheck(toggles: HTMLInputElement[]): void {
  for (const toggle of toggles) {
    if (!toggle.checked) continue;
    toggle.checked = false;
    toggle.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

/**
 * Checkboxes that show the theme's search by CSS (mkdocs-material's `#__search`): those a label in the
 * box's form is for (its "back" or close control), which a label elsewhere (the header's search
 * button) checks.
 */
function searchToggles(box: HTMLInputElement): HTMLInputElement[] {
  return [...(box.form?.querySelectorAll('label') ?? [])]
    .map((label) => label.control)
    .filter((control): control is HTMLInputElement => control instanceof HTMLInputElement && control.type === 'checkbox');
}

/**
 * The theme's search boxes (every one: a page may have one in the header and one in a menu) and their
 * forms open doclens instead, with every character typed so far, the first included.
 */
export function handOverThemeSearch(search: SearchOpener, boxes: HTMLInputElement[]): void {
  // However doclens opened (its shortcut while the theme's search modal is open, too), the theme's search closes.
  search.element().addEventListener('doclens-search-open', () => {
    for (const box of boxes) if (isVisible(box)) closeThemeSearch(box);
  });
  // Focus given back to the box makes some themes show their search again: mkdocs-material checks its
  // toggle some 80 ms later, without an event to tell. For a moment after closing, it is unchecked again.
  search.element().addEventListener('doclens-search-close', () => {
    const until = performance.now() + KEEP_CLOSED_MS;
    const keepClosed = () => {
      for (const box of boxes) uncheck(searchToggles(box));
      if (performance.now() < until) requestAnimationFrame(keepClosed);
    };
    keepClosed();
  });
  const open = (box: HTMLInputElement, key = '') => {
    // While the box has focus: some themes close their search on Escape only then (pydata-sphinx-theme).
    if (!search.isOpen) closeThemeSearch(box);
    // While doclens opens, the opener holds the words: the box's own text is only where they start.
    void search.showTyped(box.value, key, box);
  };
  for (const box of boxes) {
    // Clicks, taps and typing open it; focus alone does not, so Tab passes by and focus can return.
    box.addEventListener('click', () => open(box));
    box.addEventListener('keydown', (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      const printable = [...event.key].length === 1;
      if (!printable && event.key !== 'Enter' && event.key !== 'ArrowDown') return;
      // The key is doclens' now: a theme would act on it too (mkdocs-material opens its first result on Enter).
      event.preventDefault();
      event.stopPropagation();
      open(box, printable ? event.key : '');
    });
    // Virtual keyboards and input methods say little in keydown: their text shows in the box first.
    box.addEventListener('input', (event) => {
      if (!(event as InputEvent).isComposing) open(box);
    });
    box.form?.addEventListener('submit', (event) => {
      event.preventDefault();
      open(box);
    });
  }
  for (const opener of searchOpeners(boxes)) {
    opener.addEventListener('click', (event) => {
      // Before the theme's own (often delegated) handler opens its modal.
      event.preventDefault();
      event.stopPropagation();
      void search.show();
    });
  }
}
