import { VersionIndex } from '../demo/host/search-index.ts';
import { searchCorpus } from './corpus.ts';
import { ms, percentile, table } from './stats.ts';

const QUERIES = ['scheduler', 'retry policy', 'lease timeout', 'sched', 'confi', 'sheduler', 'retires', 'add_job', 'redis store cluster', 'privacy referrer', 'how do workers share jobs', 'zzzz'];

/** Index build time per page and search latency on a corpus of 500+ pages. */
export function benchSearch(): void {
  const corpus = searchCorpus(500);
  const index = new VersionIndex();
  const start = process.hrtime.bigint();
  for (const page of corpus) index.addPage(page.path, page.html);
  const buildMs = Number(process.hrtime.bigint() - start) / 1e6;
  const times: number[] = [];
  for (let round = 0; round < 30; round++) {
    for (const query of QUERIES) {
      const begin = process.hrtime.bigint();
      index.search(query);
      if (round > 2) times.push(Number(process.hrtime.bigint() - begin) / 1e6);
    }
  }
  times.sort((a, b) => a - b);
  const { pages, sections } = index.size;
  table(`Search (${pages} pages, ${sections} sections, ${QUERIES.length} queries incl. prefixes and typos)`, [
    ['measure', 'value', 'target'],
    ['index build per page', ms(buildMs / pages), ''],
    ['search p50', ms(percentile(times, 50)), '< 10 ms'],
    ['search p99', ms(percentile(times, 99)), ''],
  ]);
}
