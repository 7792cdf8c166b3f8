import { sep } from 'node:path';

/** A tag an earlier build wrote (its folder may have moved since): replaced, so that a page holds one. */
const WRITTEN_TAG = /<script type="module" src="[^"]*doclens\.js" data-static="[^"]*"><\/script>\n?/g;

/**
 * The page with the widget's tag in its `<head>`, loading it in static mode from `files` (the build's
 * folder, relative to the page's); the same page when it holds that tag already.
 */
export function injectTag(html: string, files: string): string {
  const base = files === '' ? './' : `${files.split(sep).join('/')}/`;
  const escaped = base.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const tag = `<script type="module" src="${escaped}doclens.js" data-static="${escaped}"></script>\n`;
  const without = html.replace(WRITTEN_TAG, '');
  const head = /<\/head\s*>/i.exec(without);
  return head ? `${without.slice(0, head.index)}${tag}${without.slice(head.index)}` : tag + without;
}
