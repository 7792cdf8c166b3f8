import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Whether an element takes typed text (or keys of its own, as a select does). */
export function isTextField(target: EventTarget | undefined): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/** Whether the reader is typing somewhere: hotkeys must not steal their keystrokes. */
function isTyping(event: KeyboardEvent): boolean {
  return isTextField(event.composedPath()[0]);
}

const KEY_EVENTS = ['keydown', 'keypress', 'keyup'] as const;

/**
 * Keeps the keys typed inside `host` away from the page's own handlers: a theme's shortcuts listen on
 * the document or window and would act on them (focus its search box on "/", go to the next page on
 * "n"). Stopped where they leave the element, so the element's own handlers have run.
 */
export function keepKeysInside(host: HTMLElement, when: (event: KeyboardEvent) => boolean): void {
  const stop = (event: KeyboardEvent) => {
    if (when(event)) event.stopPropagation();
  };
  for (const type of KEY_EVENTS) host.addEventListener(type, stop);
}

/**
 * Whether `event` is the search shortcut: `/` anywhere in the page except while the reader types in a
 * field, and Ctrl/Cmd+K (in fields too, as in most documentation sites).
 */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing) return false;
  const commandK = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
  const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event);
  return commandK || slash;
}

/** Calls `open` on the search shortcut (see `isSearchShortcut`). */
export class HotkeysController implements ReactiveController {
  private readonly onKeydown = (event: KeyboardEvent) => {
    if (!this.enabled() || !isSearchShortcut(event)) return;
    // The shortcut is doclens' now: the theme's own handler would focus its search box as well.
    event.preventDefault();
    event.stopPropagation();
    this.open();
  };

  constructor(
    host: ReactiveControllerHost,
    private readonly enabled: () => boolean,
    private readonly open: () => void,
  ) {
    host.addController(this);
  }

  // Capturing on window runs before themes' own shortcuts (Sphinx focuses its search box on "/").
  hostConnected(): void {
    window.addEventListener('keydown', this.onKeydown, { capture: true });
  }

  hostDisconnected(): void {
    window.removeEventListener('keydown', this.onKeydown, { capture: true });
  }
}

/** Keys a doclens control acted on (see `takeKey`). */
const takenKeys = new WeakSet<KeyboardEvent>();

/**
 * Cancels a key a doclens control acted on (Escape closed a preview or a menu) and says so to doclens'
 * other handlers: a cancelled key alone does not tell, as pages cancel keys too (Sphinx every Escape).
 */
export function takeKey(event: KeyboardEvent): void {
  event.preventDefault();
  takenKeys.add(event);
}

/** Whether a doclens control acted on the key (see `takeKey`). */
export const isKeyTaken = (event: KeyboardEvent): boolean => takenKeys.has(event);

/** Keeps the release of `key` (which closed a doclens element, so focus is back on the page) from the page's handlers. */
export function swallowKeyup(key: string): void {
  const swallow = (event: KeyboardEvent) => {
    if (event.key !== key) return;
    event.stopPropagation();
    window.removeEventListener('keyup', swallow, { capture: true });
  };
  window.addEventListener('keyup', swallow, { capture: true });
}

/**
 * `Ctrl K` or `⌘ K`, as the platform writes it; undefined on a touch screen without a mouse (a phone,
 * an iPhone's "Ctrl K" being no key its reader has).
 */
export function commandKLabel(): string | undefined {
  if (window.matchMedia('(hover: none) and (pointer: coarse)').matches) return undefined;
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad/i.test(platform) ? '⌘ K' : 'Ctrl K';
}
