import { ATTACKS, startIsolationRun } from '../test/reliability/isolation-harness.ts';
import { table } from './stats.ts';

/** Seconds each attack runs while the second client measures. */
const SECONDS = 10;
/** What issue 20 asks of /healthz and cache hits while one client attacks. */
const TARGET_P99_MS = 100;

/**
 * Latency of /healthz and of a cache hit from one client while another does each attack of issue 20
 * against the proxy (its own process), beside the same client's latency with no attack.
 */
export async function benchIsolation(): Promise<void> {
  const run = await startIsolationRun();
  try {
    const rows: [string, ...string[]][] = [['attack', 'answers', 'p50', 'p99', 'max', 'failures']];
    for (const [attack, name] of [[undefined, '0. nothing (the baseline)'] as const, ...ATTACKS]) {
      const { count, p50, p99, max, failures } = await run.measure(attack, SECONDS * 1000);
      rows.push([
        name.replace(/,.*/, ''),
        String(count),
        `${p50.toFixed(1)} ms`,
        `${p99.toFixed(1)} ms${p99 < TARGET_P99_MS ? '' : ' (over target)'}`,
        `${max.toFixed(1)} ms`,
        String(failures.length),
      ]);
    }
    const code = await run.terminate();
    table(
      `Isolation: /healthz and a cache hit from a second client while one client attacks (${SECONDS} s each; ` +
        `target p99 < ${TARGET_P99_MS} ms, no failures); exit code on SIGTERM afterwards: ${code}`,
      rows,
    );
  } finally {
    await run.close();
  }
}
