import { arrow, autoUpdate, computePosition, flip, offset, shift, size } from '@floating-ui/dom';

/**
 * Keeps `floating` (position: fixed, or in the top layer) under `reference`, or above it when there
 * is more room there, aligned with its start edge (the right one when `floating` is right-to-left), inside the
 * viewport by `padding`, with `arrow` over the reference. It is placed again whenever either element
 * changes size or moves (scrolling in any container, resizing, an image loading inside it) until the
 * returned function is called. The space left on the chosen side is given to CSS as
 * `--_available-height`, so that the floating element can limit its height to it.
 */
export function anchor(reference: Element, floating: HTMLElement, arrowElement: HTMLElement, placed: () => void): () => void {
  const padding = 8;
  // A link wrapped over two lines: point at its first line.
  const firstLine = { getBoundingClientRect: () => reference.getClientRects()[0] ?? reference.getBoundingClientRect(), contextElement: reference };
  const place = async () => {
    const { x, y, placement, middlewareData } = await computePosition(firstLine, floating, {
      strategy: 'fixed',
      // Start and end follow the floating element's direction.
      placement: 'bottom-start',
      middleware: [
        offset(10),
        flip({ padding, crossAxis: false }),
        shift({ padding }),
        size({ padding, apply: ({ availableHeight }) => floating.style.setProperty('--_available-height', `${Math.max(0, Math.floor(availableHeight))}px`) }),
        arrow({ element: arrowElement, padding: 10 }),
      ],
    });
    // Style properties, not a style attribute: allowed under a strict style-src.
    floating.style.left = `${x}px`;
    floating.style.top = `${y}px`;
    floating.dataset.side = placement.startsWith('top') ? 'top' : 'bottom';
    arrowElement.style.left = `${middlewareData.arrow?.x ?? 0}px`;
    placed();
  };
  return autoUpdate(reference, floating, () => void place());
}
