const STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (index) => index + 1,
  ArrowUp: (index) => index - 1,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * The arrows (going round), Home and End move focus through a menu's items, from the `focused` one;
 * returns whether the key was one of them.
 */
export function moveInMenu(event: KeyboardEvent, items: readonly HTMLElement[], focused: Element | null | undefined): boolean {
  const step = STEPS[event.key];
  if (!step || !items.length) return false;
  event.preventDefault();
  const next = step(items.indexOf(focused as HTMLElement), items.length);
  items[(next + items.length) % items.length]?.focus();
  return true;
}
