import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const build = fileURLToPath(new URL('../demo/docs/build/', import.meta.url));

/**
 * A Sphinx API reference page of at least `bytes`: the demo's Scheduler reference repeated with
 * distinct ids, like the single-page references of large projects.
 */
export function largeSphinxPage(bytes: number): { html: string; fragments: string[] } {
  const page = readFileSync(join(build, 'aurora/en/latest/api/scheduler.html'), 'utf8');
  const start = page.indexOf('<section id=');
  const end = page.indexOf('</section>', page.lastIndexOf('<dl class="py function">')) + '</section>'.length;
  const section = page.slice(start, end);
  if (start === -1 || section.length < 1000) throw new Error('the Scheduler reference page no longer has the expected sections');
  const copies: string[] = [];
  for (let n = 0, size = page.length; size < bytes; n++, size += section.length) {
    copies.push(section.replaceAll('id="', `id="r${n}-`).replaceAll('href="#', `href="#r${n}-`));
  }
  return {
    html: page.slice(0, end) + copies.join('\n') + page.slice(end),
    fragments: [`r${copies.length - 1}-aurora.Scheduler.add_job`, `r${Math.floor(copies.length / 2)}-aurora.every`, 'aurora.Scheduler.run'],
  };
}

/** Search results in the hosting API's v3 shape, each one page of project aurora with one section of `content(i)`. */
export function searchResults(count: number, content: (index: number) => string) {
  return Array.from({ length: count }, (_, i) => ({
    type: 'page',
    project: { slug: 'aurora', alias: null },
    version: { slug: 'latest' },
    title: `Page ${i}`,
    path: `/en/latest/page-${i}.html`,
    blocks: [{ type: 'section', id: `s${i}`, title: 'Section', content: content(i) }],
  }));
}
