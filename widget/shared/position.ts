import { arrow, autoUpdate, computePosition, flip, offset, shift, size } from '@floating-ui/dom';

/** How a floating element sits beside its reference. */
export interface AnchorOptions {
  /** Pixels between the reference and the floating element. */
  gap: number;
  /** Which edges line up: the start ones (the preview at its link) or the end ones (a menu under its button). */
  align?: 'start' | 'end';
  /** An arrow inside the floating element, kept over the reference. */
  arrow?: HTMLElement;
  /** Called after each placement. */
  placed?: () => void;
}

/**
 * Keeps `floating` (position: fixed, or in the top layer) under `reference`, or above it when there
 * is more room there, lined up with its start or end edge (the right one at the start when `floating`
 * is right-to-left), inside the viewport by `padding`, with the arrow over the reference. It is placed
 * again whenever either element changes size or moves (scrolling in any container, resizing, an image
 * loading inside it) until the returned function is called. The space left on the chosen side is
 * given to CSS as `--_available-height`, so that the floating element can limit its height to it.
 */
export function anchor(
  reference: Element,
  floating: HTMLElement,
  { gap, align = 'start', arrow: arrowElement, placed }: AnchorOptions,
): () => void {
  const padding = 8;
  // A link wrapped over two lines: point at its first line.
  const firstLine = {
    getBoundingClientRect: () => reference.getClientRects()[0] ?? reference.getBoundingClientRect(),
    contextElement: reference,
  };
  const place = async () => {
    const { x, y, placement, middlewareData } = await computePosition(firstLine, floating, {
      strategy: 'fixed',
      // Start and end follow the floating element's direction.
      placement: `bottom-${align}`,
      middleware: [
        offset(gap),
        flip({ padding, crossAxis: false }),
        shift({ padding }),
        size({
          padding,
          apply: ({ availableHeight }) =>
            floating.style.setProperty('--_available-height', `${Math.max(0, Math.floor(availableHeight))}px`),
        }),
        ...(arrowElement ? [arrow({ element: arrowElement, padding: 10 })] : []),
      ],
    });
    // Style properties, not a style attribute: allowed under a strict style-src.
    floating.style.left = `${x}px`;
    floating.style.top = `${y}px`;
    floating.dataset.side = placement.startsWith('top') ? 'top' : 'bottom';
    if (arrowElement) arrowElement.style.left = `${middlewareData.arrow?.x ?? 0}px`;
    placed?.();
  };
  return autoUpdate(reference, floating, () => void place());
}
