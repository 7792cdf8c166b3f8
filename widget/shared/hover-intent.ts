import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface HoverIntentOptions {
  /** Milliseconds the pointer rests on a target before `show`. */
  showDelay: () => number;
  /** Milliseconds after leaving (the target and the popup) before `hide`. */
  hideDelay: () => number;
  /** Milliseconds of rest after which the target is "settled": time to start fetching. */
  settleDelay: number;
  /** The target an event is about, or undefined when it is not one. */
  targetOf: (event: Event) => HTMLAnchorElement | undefined;
  settle: (target: HTMLAnchorElement) => void;
  show: (target: HTMLAnchorElement, byKeyboard: boolean) => void;
  hide: () => void;
  /** Whether a node is inside the popup (the pointer may move into it). */
  inPopup: (node: EventTarget | null) => boolean;
}

/**
 * Hover intent for links anywhere in the document (delegated, so links added later work): a show
 * delay, a settle point to prefetch at, a hide delay bridged by the popup, keyboard focus, and
 * Escape. Touch pointers never trigger it, so a tap stays a tap.
 */
export class HoverIntentController implements ReactiveController {
  current?: HTMLAnchorElement;
  private showTimer?: ReturnType<typeof setTimeout>;
  private settleTimer?: ReturnType<typeof setTimeout>;
  private hideTimer?: ReturnType<typeof setTimeout>;
  private opened = false;

  constructor(
    host: ReactiveControllerHost,
    private readonly options: HoverIntentOptions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('pointerover', this.onPointerOver);
    document.addEventListener('pointerout', this.onPointerOut);
    document.addEventListener('focusin', this.onFocusIn);
    document.addEventListener('focusout', this.onFocusOut);
    document.addEventListener('keydown', this.onKeydown);
  }

  hostDisconnected(): void {
    document.removeEventListener('pointerover', this.onPointerOver);
    document.removeEventListener('pointerout', this.onPointerOut);
    document.removeEventListener('focusin', this.onFocusIn);
    document.removeEventListener('focusout', this.onFocusOut);
    document.removeEventListener('keydown', this.onKeydown);
    this.clearTimers();
  }

  /** The popup reports the pointer entering and leaving it. */
  popupEntered(): void {
    clearTimeout(this.hideTimer);
  }

  popupLeft(): void {
    this.scheduleHide();
  }

  close(): void {
    this.clearTimers();
    if (this.opened) {
      this.opened = false;
      this.options.hide();
    }
    this.current = undefined;
  }

  private clearTimers(): void {
    clearTimeout(this.showTimer);
    clearTimeout(this.settleTimer);
    clearTimeout(this.hideTimer);
  }

  private begin(target: HTMLAnchorElement, byKeyboard: boolean): void {
    clearTimeout(this.hideTimer);
    if (this.current === target && this.opened) return;
    clearTimeout(this.showTimer);
    clearTimeout(this.settleTimer);
    this.current = target;
    const delay = byKeyboard ? 0 : this.options.showDelay();
    this.settleTimer = setTimeout(() => this.options.settle(target), Math.min(this.options.settleDelay, delay));
    this.showTimer = setTimeout(() => {
      this.opened = true;
      this.options.show(target, byKeyboard);
    }, delay);
  }

  private scheduleHide(): void {
    clearTimeout(this.showTimer);
    clearTimeout(this.settleTimer);
    clearTimeout(this.hideTimer);
    if (!this.opened) {
      this.current = undefined;
      return;
    }
    this.hideTimer = setTimeout(() => this.close(), this.options.hideDelay());
  }

  private onPointerOver = (event: PointerEvent) => {
    if (event.pointerType === 'touch') return;
    if (this.options.inPopup(event.target)) return;
    const target = this.options.targetOf(event);
    if (target) this.begin(target, false);
  };

  private onPointerOut = (event: PointerEvent) => {
    if (event.pointerType === 'touch' || !this.current) return;
    const from = this.options.targetOf(event);
    if (from !== this.current) return;
    // Moving between the link's own children is not leaving it.
    if (event.relatedTarget instanceof Node && this.current.contains(event.relatedTarget)) return;
    if (this.options.inPopup(event.relatedTarget)) return;
    this.scheduleHide();
  };

  private onFocusIn = (event: FocusEvent) => {
    const target = this.options.targetOf(event);
    // Only keyboard focus: a tap or click also focuses the link and must not open a preview.
    if (target?.matches(':focus-visible')) this.begin(target, true);
  };

  private onFocusOut = (event: FocusEvent) => {
    if (this.current && this.options.targetOf(event) === this.current && !this.options.inPopup(event.relatedTarget)) this.scheduleHide();
  };

  private onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && (this.opened || this.current)) {
      const target = this.current;
      const focusInPopup = this.options.inPopup(document.activeElement);
      this.close();
      // Focus stays on the link; if the reader had tabbed into the preview, it goes back there.
      if (target && focusInPopup) target.focus();
    }
  };
}
