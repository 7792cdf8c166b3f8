/** Whether `element` stays in the viewport as the page scrolls: it, or a box around it, is fixed or sticky. */
export function isPinned(element: Element): boolean {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const { position } = getComputedStyle(node);
    if (position === 'fixed' || position === 'sticky') return true;
  }
  return false;
}
