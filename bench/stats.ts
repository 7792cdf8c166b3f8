/** Percentile of already sorted numbers (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Runs `fn` `runs` times after `warmup` unmeasured runs; returns sorted durations in milliseconds. */
export function timeRuns(runs: number, fn: () => unknown, warmup = Math.min(20, runs)): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

/**
 * Times several functions side by side: each round runs every one of them, in an order that rotates,
 * so garbage collection and JIT state weigh on all alike. Returns sorted durations per function.
 */
export function timeInterleaved(runs: number, fns: (() => unknown)[], warmup = Math.min(10, runs)): number[][] {
  const times = fns.map(() => [] as number[]);
  for (let round = 0; round < warmup + runs; round++) {
    for (let k = 0; k < fns.length; k++) {
      const index = (round + k) % fns.length;
      const start = process.hrtime.bigint();
      fns[index]!();
      if (round >= warmup) times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return times.map((list) => list.sort((a, b) => a - b));
}

export const ms = (value: number) => `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms`;

/** Prints rows as an aligned table. */
export function table(title: string, rows: [string, ...string[]][]): void {
  console.log(`\n${title}`);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`);
}
