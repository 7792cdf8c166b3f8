import { DomHandler } from 'domhandler';
import { Parser } from 'htmlparser2';
import { extractSection } from '../extraction/find-section.ts';
import { parseHtml } from '../extraction/html/parse.ts';
import { largeSphinxPage } from './corpus.ts';
import { ms, percentile, table, timeInterleaved, timeRuns } from './stats.ts';

/**
 * Cold extraction of a 700 KB page (parsed, then selected and read through cheerio) against the bare
 * htmlparser2 parse of the same bytes.
 */
export function benchExtraction(): void {
  const { html, fragments } = largeSphinxPage(700 * 1024);
  const url = 'https://docs.example.org/en/latest/api/scheduler.html';
  const runs = 40;
  const [bare, cold] = timeInterleaved(runs, [
    () => new Parser(new DomHandler()).end(html),
    () => extractSection(html, url, { fragment: fragments[0]!, doctool: 'sphinx' }),
  ]) as [number[], number[]];
  const parsed = parseHtml(html);
  extractSection(parsed, url, { fragment: fragments[0]!, doctool: 'sphinx' });
  const warm = timeRuns(2000, () => extractSection(parsed, url, { fragment: fragments[1]!, doctool: 'sphinx' }));
  const main = timeRuns(runs, () => extractSection(parsed, url, {}));
  const p50 = (times: number[]) => percentile(times, 50);
  table(`Extraction (${(html.length / 1024).toFixed(0)} KB Sphinx page, parser: ${parsed.parser})`, [
    ['measure', 'p50', 'p99', 'target'],
    ['bare htmlparser2 parse', ms(p50(bare)), ms(percentile(bare, 99)), ''],
    [
      'cold extraction through cheerio (parse + select + render)',
      ms(p50(cold)),
      ms(percentile(cold, 99)),
      `${(p50(cold) / p50(bare)).toFixed(2)}× bare (target ≤ 1.1×)`,
    ],
    ['another fragment of the parsed page', ms(p50(warm)), ms(percentile(warm, 99)), 'target < 1 ms'],
    ['main content of the parsed page', ms(p50(main)), ms(percentile(main, 99)), ''],
  ]);
}
