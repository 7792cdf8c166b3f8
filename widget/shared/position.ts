export type Side = 'top' | 'bottom';

/**
 * Places `floating` (position: fixed) under `reference`, or above it when there is more room there,
 * aligned with its start edge (right edge in right-to-left text) and shifted to stay `padding` inside
 * the viewport; puts `arrow` over the reference's middle. Returns the side used.
 */
export function placeNear(reference: Element, floating: HTMLElement, arrow: HTMLElement, options: { gap?: number; padding?: number; rtl?: boolean } = {}): Side {
  const gap = options.gap ?? 10;
  const padding = options.padding ?? 8;
  // A link wrapped over two lines: point at its first line.
  const anchor = reference.getClientRects()[0] ?? reference.getBoundingClientRect();
  const { width, height } = floating.getBoundingClientRect();
  const viewportWidth = document.documentElement.clientWidth;
  const viewportHeight = window.innerHeight;
  const below = viewportHeight - anchor.bottom - gap - padding;
  const above = anchor.top - gap - padding;
  const side: Side = height > below && above > below ? 'top' : 'bottom';
  const top = side === 'bottom' ? anchor.bottom + gap : Math.max(padding, anchor.top - gap - height);
  const start = options.rtl ? anchor.right - width : anchor.left;
  const left = Math.min(Math.max(start, padding), Math.max(padding, viewportWidth - width - padding));
  // Style properties, not a style attribute: allowed under a strict style-src.
  floating.style.left = `${left}px`;
  floating.style.top = `${top}px`;
  const arrowLeft = Math.min(Math.max(anchor.left + anchor.width / 2 - left - 5, 10), width - 20);
  arrow.style.left = `${arrowLeft}px`;
  arrow.style.top = side === 'bottom' ? '-6px' : '';
  arrow.style.bottom = side === 'top' ? '-6px' : '';
  return side;
}

/** Calls `update` on every scroll (of any container) and resize until the returned function is called. */
export function followLayout(update: () => void): () => void {
  let frame = 0;
  const schedule = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(update);
  };
  window.addEventListener('scroll', schedule, { capture: true, passive: true });
  window.addEventListener('resize', schedule, { passive: true });
  return () => {
    cancelAnimationFrame(frame);
    window.removeEventListener('scroll', schedule, { capture: true });
    window.removeEventListener('resize', schedule);
  };
}
