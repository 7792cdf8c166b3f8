import { isTag, type AnyNode, type Element } from 'domhandler';
import { descendants, parseFragment } from './parse.ts';

/** The page URL without query and fragment: what in-page references are resolved against. */
export function pageUrlOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Makes a reference from a page absolute, as a browser on that page would resolve it.
 * Fragment-only references are appended to the page URL verbatim (as the hosting service does), so
 * `https://host` + `#id` stays `https://host#id`.
 */
export function absolutize(reference: string, pageUrl: string): string {
  const trimmed = reference.trim();
  if (trimmed === '' || HAS_SCHEME.test(trimmed) || trimmed.startsWith('//')) return reference;
  if (trimmed.startsWith('#')) return pageUrlOf(pageUrl) + trimmed;
  try {
    return new URL(trimmed, pageUrl).href;
  } catch {
    return reference;
  }
}

/** A `srcset`'s URLs made absolute, their descriptors kept. */
export function absolutizeSrcset(srcset: string, pageUrl: string): string {
  return srcset
    .split(',')
    .map((candidate) => {
      const [url = '', ...descriptor] = candidate.trim().split(/\s+/);
      return [absolutize(url, pageUrl), ...descriptor].join(' ');
    })
    .join(', ');
}

/** Rewrites `a[href]`, `img[src]` and `img[srcset]` in and below `root` to absolute URLs, in place (one walk, no selectors). */
export function absolutizeReferences(root: Element, pageUrl: string): void {
  const absolutizeOne = ({ name, attribs }: Element) => {
    if (name === 'a' && attribs.href !== undefined) attribs.href = absolutize(attribs.href, pageUrl);
    if (name !== 'img') return;
    if (attribs.src !== undefined) attribs.src = absolutize(attribs.src, pageUrl);
    if (attribs.srcset !== undefined) attribs.srcset = absolutizeSrcset(attribs.srcset, pageUrl);
  };
  absolutizeOne(root);
  for (const element of descendants(root)) absolutizeOne(element);
}

/** Section HTML (a fragment, such as an upstream's embed answer) parsed, with every link and image absolute. */
export function absolutizedFragment(html: string, pageUrl: string): AnyNode[] {
  const nodes = parseFragment(html);
  for (const node of nodes) if (isTag(node)) absolutizeReferences(node, pageUrl);
  return nodes;
}
