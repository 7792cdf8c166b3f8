import { spawn } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import type { ReplicaSetup } from './replica-servers.ts';
import { table } from './stats.ts';

const HOT_PATH = '/api/v3/search/?q=scheduler&page_size=5';
/**
 * What browsers send (answers above 1 KB go out compressed, from copies made once), through the
 * balancer in front of the replicas, which names the one origin readers reach them at.
 */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br', 'x-forwarded-host': 'docs-proxy.example', 'x-forwarded-proto': 'https' };
const CONNECTIONS = 50;

interface Load {
  rps: number;
  p99: number;
  errors: number;
}

/** Cache hits through every replica at once, the connections shared among them (a round-robin client). */
async function hits(replicas: string[], seconds: number): Promise<Load> {
  const runs = await Promise.all(
    replicas.map((replica) =>
      autocannon({
        url: `${replica}${HOT_PATH}`,
        headers: BROWSER,
        connections: Math.round(CONNECTIONS / replicas.length),
        duration: seconds,
      }),
    ),
  );
  return {
    rps: runs.reduce((sum, run) => sum + run.requests.average, 0),
    p99: Math.max(...runs.map((run) => run.latency.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0),
  };
}

/** Upstream calls the replicas made so far, from their own metrics (`ops`: their operations listeners). */
async function upstreamCalls(ops: string[]): Promise<number> {
  let calls = 0;
  for (const replica of ops) {
    const text = await (await fetch(`${replica}/metrics`)).text();
    for (const match of text.matchAll(/^doclens_upstream_duration_seconds_count\{[^}]*\} (\d+)/gm)) calls += Number(match[1]);
  }
  return calls;
}

/**
 * The same readers' workload through each setup: 40 searches asked 3 times each, 8 at a time; each
 * time a search is asked, the next replica answers it (as a round-robin balancer would deal them).
 */
async function workload({ replicas, ops }: ReplicaSetup): Promise<{ calls: number; failed: number }> {
  const before = await upstreamCalls(ops);
  const requests = Array.from({ length: 120 }, (_, i) => ({
    path: `/api/v3/search/?q=${encodeURIComponent(`retry policy ${i % 40}`)}`,
    replica: replicas[((i % 40) + Math.floor(i / 40)) % replicas.length]!,
  }));
  let failed = 0;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < requests.length; i = next++) {
      const response = await fetch(`${requests[i]!.replica}${requests[i]!.path}`, { headers: BROWSER });
      await response.arrayBuffer();
      if (response.status !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { calls: (await upstreamCalls(ops)) - before, failed };
}

/**
 * One replica without Redis, one with it (with and without a shared limit counting every hit), and two
 * replicas without and with Redis: cache-hit throughput and p99, and upstream calls for one workload.
 */
export async function benchReplicas(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./replica-servers.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const setups = JSON.parse(line.toString()) as ReplicaSetup[];
    const seconds = Number(process.env.BENCH_SECONDS ?? 5);
    const loads = new Map<string, Load[]>(setups.map((setup) => [setup.name, []]));
    const workloads = new Map<string, { calls: number; failed: number }>();
    for (const setup of setups) {
      workloads.set(setup.name, await workload(setup));
      // The hot answer in every replica's memory (and in Redis) before the clock starts.
      for (const replica of setup.replicas) await (await fetch(`${replica}${HOT_PATH}`, { headers: BROWSER })).arrayBuffer();
    }
    // Two rounds in turn, so that no setup gets the quieter half of the machine.
    for (let round = 0; round < 2; round++) {
      for (const setup of setups) loads.get(setup.name)!.push(await hits(setup.replicas, seconds));
    }
    const mean = (runs: Load[]) => runs.reduce((sum, run) => sum + run.rps, 0) / runs.length;
    const alone = mean(loads.get(setups[0]!.name)!);
    table(
      `Replicas (cache hits: ${CONNECTIONS} connections shared among the replicas, ${2 * seconds} s each; ` +
        'workload: 120 searches, 40 distinct, 8 at a time)',
      [
        ['setup', 'hits req/s', 'vs alone', 'p99', 'errors', 'upstream calls (workload)'],
        ...setups.map((setup): [string, ...string[]] => {
          const runs = loads.get(setup.name)!;
          const { calls, failed } = workloads.get(setup.name)!;
          return [
            setup.name,
            mean(runs).toFixed(0),
            `${(mean(runs) / alone).toFixed(2)}×`,
            `${Math.max(...runs.map((run) => run.p99))} ms`,
            String(runs.reduce((sum, run) => sum + run.errors, 0) + failed),
            String(calls),
          ];
        }),
      ],
    );
  } finally {
    child.kill('SIGTERM');
  }
}
