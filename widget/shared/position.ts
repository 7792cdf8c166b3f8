import { arrow, autoUpdate, computePosition, flip, offset, shift, size } from '@floating-ui/dom';

/** How a floating element sits beside its reference. */
export interface AnchorOptions {
  /** Pixels between the reference and the floating element. */
  gap: number;
  /** Which edges line up: the start ones (the preview at its link) or the end ones (a menu under its button). */
  align?: 'start' | 'end';
  /** An arrow inside the floating element, kept over the reference. */
  arrow?: HTMLElement;
  /** Beside the reference too (left or right), where neither below nor above holds the floating element whole. */
  beside?: boolean;
  /** Called after each placement. */
  placed?: () => void;
}

type Side = 'top' | 'bottom' | 'left' | 'right';

/**
 * Keeps `floating` (position: fixed, or in the top layer) where it fits whole: under `reference`, else
 * above it, else (with `beside`) to its right or left, else on the side with the most room; lined up
 * with its start or end edge (the right one at the start when `floating` is right-to-left), shifted to
 * stay inside the viewport by `padding`, with the arrow over the reference. Each placement measures the
 * element at its natural height (its own CSS maximum), so that a side that would squeeze it is left for
 * one that holds it. It is placed again whenever either element changes size or moves (scrolling in any
 * container, resizing, an image loading inside it) until the returned function is called. The space
 * left on the chosen side is given to CSS as `--_available-height`, so that it limits its height to it.
 */
export function anchor(
  reference: Element,
  floating: HTMLElement,
  { gap, align = 'start', arrow: arrowElement, beside = false, placed }: AnchorOptions,
): () => void {
  const padding = 8;
  // A link wrapped over two lines: point at its first line.
  const firstLine = {
    getBoundingClientRect: () => reference.getClientRects()[0] ?? reference.getBoundingClientRect(),
    contextElement: reference,
  };
  const place = async () => {
    // Measured whole: the height the previous side allowed is not what it needs.
    floating.style.removeProperty('--_available-height');
    const { x, y, placement, middlewareData } = await computePosition(firstLine, floating, {
      strategy: 'fixed',
      // Start and end follow the floating element's direction.
      placement: `bottom-${align}`,
      middleware: [
        offset(gap),
        flip({
          padding,
          crossAxis: false,
          fallbackPlacements: [`top-${align}`, ...(beside ? (['right-start', 'left-start'] as const) : [])],
          // Where no side holds it whole: the side where the least of it is cut off.
          fallbackStrategy: 'bestFit',
        }),
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
    const side = placement.split('-')[0] as Side;
    floating.dataset.side = side;
    if (arrowElement) {
      const across = side === 'left' || side === 'right';
      arrowElement.style.left = across ? '' : `${middlewareData.arrow?.x ?? 0}px`;
      arrowElement.style.top = across ? `${middlewareData.arrow?.y ?? 0}px` : '';
    }
    placed?.();
  };
  return autoUpdate(reference, floating, () => void place());
}
