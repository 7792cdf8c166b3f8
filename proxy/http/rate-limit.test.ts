import { describe, expect, it } from 'vitest';
import { bucketBytes, RateLimiter } from './rate-limit.ts';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

/** How many of `count` requests by `key` are let through at once. */
const allowed = (limiter: RateLimiter, key: string, count: number) =>
  Array.from({ length: count }, () => limiter.take(key)).filter((wait) => wait === 0).length;

describe('RateLimiter', () => {
  it('lets a burst of a quarter of the minute through, then says how long to wait', () => {
    const clock = manualClock();
    const limiter = new RateLimiter(60, undefined, clock.now);
    expect(allowed(limiter, 'a', 15)).toBe(15);
    // One request a second comes back: the next is a second away.
    expect(limiter.take('a')).toBe(1);
  });

  it('refills at the rate per minute, and a refused request costs nothing', () => {
    const clock = manualClock();
    const limiter = new RateLimiter(6, 1, clock.now);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(10);
    clock.advance(4_000);
    expect(limiter.take('a')).toBe(6);
    clock.advance(5_999);
    expect(limiter.take('a')).toBe(1);
    clock.advance(1);
    expect(limiter.take('a')).toBe(0);
  });

  it('never refills beyond the burst, however long a client was away', () => {
    const clock = manualClock();
    const limiter = new RateLimiter(60, 5, clock.now);
    expect(allowed(limiter, 'a', 5)).toBe(5);
    clock.advance(60 * 60_000);
    expect(allowed(limiter, 'a', 10)).toBe(5);
  });

  it('keeps each key to its own budget', () => {
    const clock = manualClock();
    const limiter = new RateLimiter(60, 2, clock.now);
    expect(allowed(limiter, '192.0.2.1', 3)).toBe(2);
    expect(allowed(limiter, '192.0.2.2', 3)).toBe(2);
    expect(allowed(limiter, '2001:db8::1', 3)).toBe(2);
  });

  it('lets everything through with a limit of 0, keeping nothing', () => {
    const limiter = new RateLimiter(0);
    expect(allowed(limiter, 'a', 1000)).toBe(1000);
    expect(limiter.bytes).toBe(0);
  });

  it("counts its memory per key, the key's length included, and keeps within maxBytes", () => {
    const clock = manualClock();
    const limiter = new RateLimiter(60, 5, clock.now, 3 * bucketBytes('flood-00'));
    for (const key of ['a', 'b', 'c']) limiter.take(key);
    expect(limiter.bytes).toBe(3 * bucketBytes('a'));
    for (let i = 0; i < 100; i++) limiter.take(`flood-${i}`);
    expect(limiter.bytes).toBeLessThanOrEqual(3 * bucketBytes('flood-00'));
    // A long key counts for what it is.
    limiter.take('x'.repeat(1000));
    expect(limiter.bytes).toBeGreaterThanOrEqual(bucketBytes('x'.repeat(1000)));
    expect(limiter.bytes).toBeLessThanOrEqual(bucketBytes('x'.repeat(1000)) + 3 * bucketBytes('flood-00'));
  });

  it('forgets the keys whose buckets filled up again before any other', () => {
    const clock = manualClock();
    const limiter = new RateLimiter(60, 2, clock.now, 2 * bucketBytes('busy'));
    limiter.take('idle');
    clock.advance(2_000);
    expect(allowed(limiter, 'busy', 2)).toBe(2);
    // A new key makes room by forgetting the idle one; the busy one stays limited.
    limiter.take('new');
    expect(limiter.take('busy')).toBeGreaterThan(0);
  });

  it('forgets the least recently seen key under a flood, not a client that keeps coming back', () => {
    const clock = manualClock();
    const limiter = new RateLimiter(1, 3, clock.now, bucketBytes('returning') + bucketBytes('newcomer'));
    expect(allowed(limiter, 'returning', 3)).toBe(3);
    limiter.take('once');
    clock.advance(1);
    // Seen again, most recently: its empty bucket must survive the next newcomer.
    expect(limiter.take('returning')).toBeGreaterThan(0);
    limiter.take('newcomer');
    expect(limiter.take('returning')).toBeGreaterThan(0);
  });
});
