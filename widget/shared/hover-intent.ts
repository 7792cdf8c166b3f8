import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { takeKey } from './hotkeys.ts';

/** What opened the popup: a resting mouse or pen, keyboard focus, or a tap. */
export type IntentTrigger = 'pointer' | 'keyboard' | 'touch';

export interface HoverIntentOptions {
  /** Milliseconds the pointer rests on a target before `show`. */
  showDelay: () => number;
  /** Milliseconds after leaving (the target and the popup) before `hide`. */
  hideDelay: () => number;
  /** Milliseconds of rest after which the target is "settled": time to start fetching. */
  settleDelay: number;
  /** The target a node (an event's target) belongs to, or undefined when it is in none. */
  targetOf: (node: EventTarget | null) => HTMLAnchorElement | undefined;
  settle: (target: HTMLAnchorElement) => void;
  show: (target: HTMLAnchorElement, trigger: IntentTrigger) => void;
  hide: () => void;
  /** Whether a node is inside the popup (the pointer may move into it). */
  inPopup: (node: EventTarget | null) => boolean;
  /** Whether a first tap on a target opens the popup (a second one follows the link). */
  touch: () => boolean;
}

/**
 * Hover intent for links anywhere in the document (delegated, so links added later work): a show
 * delay, a settle point to prefetch at, a hide delay bridged by the popup, keyboard focus, and
 * Escape. Touch pointers never hover: there a first tap on a target opens the popup instead of
 * following the link, a second tap follows it, and a tap elsewhere closes it (unless `touch` is off).
 */
export class HoverIntentController implements ReactiveController {
  current?: HTMLAnchorElement;
  private showTimer?: ReturnType<typeof setTimeout>;
  private settleTimer?: ReturnType<typeof setTimeout>;
  private hideTimer?: ReturnType<typeof setTimeout>;
  private opened = false;
  private trigger: IntentTrigger = 'pointer';
  /** The link Escape sent focus back to: that focus must not reopen the popup. */
  private dismissed?: HTMLAnchorElement;
  /** The kind of the last pointer pressed: a click does not always tell. */
  private lastPointer = '';

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
    document.addEventListener('pointerdown', this.onPointerDown, { capture: true, passive: true });
    document.addEventListener('click', this.onClick, { capture: true });
    this.enterCurrentTarget();
  }

  /**
   * The code is loaded on a first hover or focus: the target under the pointer (or focused from the
   * keyboard) by then was entered before anything listened, and is entered now.
   */
  private enterCurrentTarget(): void {
    const hovered = [...document.querySelectorAll(':hover')].at(-1) ?? null;
    const pointed = this.options.targetOf(hovered);
    if (pointed) return this.begin(pointed, 'pointer');
    const focused = this.options.targetOf(document.activeElement);
    if (focused?.matches(':focus-visible')) this.begin(focused, 'keyboard');
  }

  hostDisconnected(): void {
    document.removeEventListener('pointerover', this.onPointerOver);
    document.removeEventListener('pointerout', this.onPointerOut);
    document.removeEventListener('focusin', this.onFocusIn);
    document.removeEventListener('focusout', this.onFocusOut);
    document.removeEventListener('keydown', this.onKeydown);
    document.removeEventListener('pointerdown', this.onPointerDown, { capture: true });
    document.removeEventListener('click', this.onClick, { capture: true });
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

  private begin(target: HTMLAnchorElement, trigger: IntentTrigger): void {
    clearTimeout(this.hideTimer);
    if (this.current === target && this.opened) return;
    clearTimeout(this.showTimer);
    clearTimeout(this.settleTimer);
    this.current = target;
    const delay = trigger === 'pointer' ? this.options.showDelay() : 0;
    this.settleTimer = setTimeout(() => this.options.settle(target), Math.min(this.options.settleDelay, delay));
    this.showTimer = setTimeout(() => {
      this.opened = true;
      this.trigger = trigger;
      this.options.show(target, trigger);
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
    const target = this.options.targetOf(event.target);
    if (target) this.begin(target, 'pointer');
  };

  private onPointerOut = (event: PointerEvent) => {
    if (event.pointerType === 'touch' || !this.current) return;
    const from = this.options.targetOf(event.target);
    if (from !== this.current) return;
    // Moving between the link's own children is not leaving it.
    if (event.relatedTarget instanceof Node && this.current.contains(event.relatedTarget)) return;
    if (this.options.inPopup(event.relatedTarget)) return;
    this.scheduleHide();
  };

  private onFocusIn = (event: FocusEvent) => {
    const target = this.options.targetOf(event.target);
    // Only keyboard focus: a tap or click also focuses the link and must not open a preview.
    if (target?.matches(':focus-visible') && target !== this.dismissed) this.begin(target, 'keyboard');
  };

  private onFocusOut = (event: FocusEvent) => {
    if (this.options.targetOf(event.target) === this.dismissed) this.dismissed = undefined;
    // A tapped preview closes on a tap elsewhere: tapping its text moves focus out of the link too.
    if (this.opened && this.trigger === 'touch') return;
    if (this.current && this.options.targetOf(event.target) === this.current && !this.options.inPopup(event.relatedTarget))
      this.scheduleHide();
  };

  private onPointerDown = (event: PointerEvent) => {
    this.lastPointer = event.pointerType;
  };

  /** A tap on `target` that reached the page before this controller did (the loader held it): what a first tap does. */
  tapped(target: HTMLAnchorElement): void {
    this.lastPointer = 'touch';
    this.begin(target, 'touch');
  }

  private onClick = (event: MouseEvent) => {
    if (this.lastPointer !== 'touch' || !this.options.touch() || this.options.inPopup(event.target)) return;
    const target = this.options.targetOf(event.target);
    if (!target) {
      this.close();
      return;
    }
    // The second tap on the same link follows it.
    if (target === this.current && this.opened) return;
    event.preventDefault();
    this.begin(target, 'touch');
  };

  private onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && (this.opened || this.current)) {
      // The Escape is the preview's: the matches bar does not close with it too.
      takeKey(event);
      const target = this.current;
      const focusInPopup = this.options.inPopup(document.activeElement);
      this.close();
      // Focus stays on the link; if the reader had tabbed into the preview, it goes back there.
      if (target && focusInPopup) {
        this.dismissed = target;
        target.focus();
      }
    }
  };
}
