import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKS, FAIRNESS_ATTACKS, startIsolationRun, type Attack, type IsolationRun } from './isolation-harness.ts';

/**
 * One hostile client against the proxy process, attack after attack of issues 20 and 30, while a
 * second client asks for /healthz and for a cached search: every answer comes, none is a 5xx, none
 * stalls, the process stays alive, and it stops on SIGTERM afterwards. The latency figures printed
 * here are measured against their target (p99 under 100 ms) by `npm run bench -- isolation` and
 * `npm run bench -- fairness`: on a machine shared with other work they say more about that work
 * than about the proxy.
 */
/**
 * Each attack runs until it has bitten: until it has done this much of its work (hostile-client.ts
 * counts it: requests answered or refused, connections held or closed by the proxy, batches of
 * pipelined requests sent) and the second client has had ANSWERS answers meanwhile, rather than for
 * a fixed time that a loaded machine makes too short and an idle one wastes.
 */
const BITES: Record<Attack, number> = {
  reset: 200,
  // Four rounds of 20, past the header timeout (500 ms) of the first.
  hold: 80,
  selector: 40,
  // A round of its four lanes, each extraction up to --extract-timeout.
  'hostile-pages': 4,
  // Half of a burst of 16 distinct sections.
  'large-sections': 8,
  // As many connections closed by the proxy as the attack holds: each slot taken back once on average.
  reconnect: 200,
  pipeline: 10,
  'pipeline-4': 10,
  unrouted: 400,
  metrics: 64,
  'large-answers': 200,
};
const ANSWERS = 20;
/** Far above the target, far below the stalls of issue 20 (2 to 60 s and more). */
const STALL_MS = 2000;
/** A bound for an attack that never bites (the test then fails on its units). */
const DEADLINE_MS = 20_000;

let run: IsolationRun;
beforeAll(async () => {
  run = await startIsolationRun();
}, 60_000);
afterAll(() => run?.close());

describe('one hostile client, measured from a second one', () => {
  const attacks = [[undefined, '0. nothing (the baseline)'] as const, ...ATTACKS, ...FAIRNESS_ATTACKS];
  for (const [attack, name] of attacks) {
    const fairness = FAIRNESS_ATTACKS.some(([other]) => other === attack);
    it(
      fairness ? `fairness ${name}` : name,
      async () => {
        const units = attack ? BITES[attack] : 0;
        const { count, units: done, p50, p99, max, failures } = await run.measure(attack, DEADLINE_MS, { units, answers: ANSWERS });
        console.log(
          `${fairness ? 'fairness' : 'isolation'}: ${name}: ${done} units of attack, ${count} answers, ` +
            `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
        );
        expect(run.alive(), 'the proxy process is alive').toBe(true);
        expect(failures).toEqual([]);
        expect(done, 'the attack did its work').toBeGreaterThanOrEqual(units);
        expect(count).toBeGreaterThanOrEqual(ANSWERS);
        expect(max).toBeLessThan(STALL_MS);
      },
      DEADLINE_MS + 30_000,
    );
  }

  it('stops on SIGTERM afterwards', async () => {
    expect(run.alive()).toBe(true);
    expect(await run.terminate()).toBe(0);
  }, 30_000);
});
