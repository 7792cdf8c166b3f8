import { DomHandler } from 'domhandler';
import { Parser } from 'htmlparser2';
import { extractSection } from '../extraction/find-section.ts';
import { parseHtml } from '../extraction/html/parse.ts';
import { proxyThreads } from '../proxy/threads/pool.ts';
import { busyProcesses } from './busy.ts';
import { largeSphinxPage } from './corpus.ts';
import { ms, percentile, table, timeInterleaved, timeRuns } from './stats.ts';

/**
 * Cold extraction of a 700 KB page (parsed, then selected and read through cheerio) against the bare
 * htmlparser2 parse of the same bytes.
 */
export async function benchExtraction(): Promise<void> {
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
  await benchBusyThreads();
}

/**
 * Previews of large pages (90–280 KB, as Kombu's and Requests' reference pages) through one proxy
 * extraction thread, started for them, with two processes keeping the cores busy: what a reader's
 * first preview of a page waits for on a busy machine, of the 1 s from hover to preview.
 */
async function benchBusyThreads(): Promise<void> {
  const pages = [90, 120, 160, 200, 240, 280].map((kb) => largeSphinxPage(kb * 1024));
  const stopBusy = busyProcesses();
  const pool = proxyThreads({ threads: 1, timeLimitMs: 30_000, maxWaitMs: 30_000, maxQueued: 64, workingBytes: 320 * 2 ** 20 });
  const times: number[] = [];
  try {
    for (let round = 0; round < 4; round++)
      for (const { html, fragments } of pages) {
        const input = {
          page: new TextEncoder().encode(html),
          pageUrl: 'https://docs.example.org/api.html',
          doctool: null,
          maincontent: null,
        };
        const started = performance.now();
        await pool.run('section', { ...input, fragment: fragments[round % fragments.length]!, preview: true });
        times.push(performance.now() - started);
      }
  } finally {
    stopBusy();
    await pool.close();
  }
  times.sort((a, b) => a - b);
  table('Previews through an extraction thread, two busy processes beside it', [
    ['measure', 'p50', 'p95', 'target'],
    [
      `${times.length} previews of 90–280 KB pages (the thread's start included)`,
      ms(percentile(times, 50)),
      ms(percentile(times, 95)),
      'p95 < 300 ms',
    ],
  ]);
}
