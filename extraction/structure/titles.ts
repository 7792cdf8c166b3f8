/** Separators themes put between a page's title and the site's name in `<title>`. */
const TITLE_SEPARATOR = /\s+[-–—|·:»]\s+/g;

/**
 * The suffix that the titles of a site end with after a separator (" — Django documentation",
 * " - Flask Documentation", " | Site"): the site's name, which says nothing about each page. Nearly
 * every title must carry it (a redirect page or the home page may not).
 */
export function commonTitleSuffix(titles: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const title of titles) {
    for (const match of title.matchAll(TITLE_SEPARATOR)) {
      if (match.index > 0) counts.set(title.slice(match.index), (counts.get(title.slice(match.index)) ?? 0) + 1);
    }
  }
  let best = '';
  for (const [suffix, count] of counts) {
    const bestCount = counts.get(best) ?? 0;
    if (count > bestCount || (count === bestCount && suffix.length > best.length)) best = suffix;
  }
  return (counts.get(best) ?? 0) >= Math.max(2, 0.8 * titles.length) ? best : '';
}

/** `title` without `suffix` (see {@link commonTitleSuffix}); the title itself when nothing would remain. */
export function withoutSuffix(title: string, suffix: string): string {
  return suffix && title.endsWith(suffix) && title.length > suffix.length ? title.slice(0, -suffix.length).trim() : title;
}
