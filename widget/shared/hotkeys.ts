import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Whether the reader is typing somewhere: hotkeys must not steal their keystrokes. */
function isTyping(event: KeyboardEvent): boolean {
  const target = event.composedPath()[0];
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/**
 * Calls `open` on `/` and Ctrl/Cmd+K anywhere in the page, except while the reader types in a field
 * (Ctrl/Cmd+K works there too, as in most documentation sites).
 */
export class HotkeysController implements ReactiveController {
  private readonly onKeydown = (event: KeyboardEvent) => {
    if (!this.enabled() || event.defaultPrevented || event.isComposing) return;
    const commandK = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
    const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event);
    if (!commandK && !slash) return;
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

/** `Ctrl K` or `⌘ K`, as the platform writes it. */
export function commandKLabel(): string {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad/i.test(platform) ? '⌘ K' : 'Ctrl K';
}
