import type { DoclensPreview } from '../preview/doclens-preview.ts';
import { loadCode } from './code.ts';

/** Longest a tap on a link waits for the preview's code: past it, the link is followed as it would be without previews. */
const HELD_TAP_MS = 3000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The tap handed to the preview once its code has come (in time), or the link followed as the tap asked. */
async function handOver(preview: HTMLElement, link: HTMLAnchorElement, follow: (link: HTMLAnchorElement) => void): Promise<void> {
  const loaded = await Promise.race([
    loadCode('preview').then(
      () => true,
      () => false,
    ),
    delay(HELD_TAP_MS).then(() => false),
  ]);
  if (loaded && (preview as DoclensPreview).tap(link)) return;
  follow(link);
}

/**
 * Taps on links before the preview's code has come: on a phone a first tap on a link that previews shows the preview
 * (a second follows the link), so a tap while the code loads is held here until it comes (at most `HELD_TAP_MS`),
 * then handed to the preview, or the link followed when it does not preview. Once the element is defined, it takes
 * taps itself.
 */
export function holdEarlyTaps(preview: HTMLElement): void {
  let lastPointer = '';
  /** The link followed after a held tap: its click is the page's. */
  let following: HTMLAnchorElement | undefined;
  const onPointerDown = (event: PointerEvent) => {
    lastPointer = event.pointerType;
  };
  const onClick = (event: MouseEvent) => {
    if (customElements.get('doclens-preview')) {
      document.removeEventListener('pointerdown', onPointerDown, { capture: true });
      document.removeEventListener('click', onClick, { capture: true });
      return;
    }
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (lastPointer !== 'touch' || event.defaultPrevented || !(link instanceof HTMLAnchorElement) || link === following) return;
    event.preventDefault();
    void handOver(preview, link, (held) => {
      following = held;
      held.click();
      following = undefined;
    });
  };
  document.addEventListener('pointerdown', onPointerDown, { capture: true });
  document.addEventListener('click', onClick, { capture: true });
}
