import { randomUUID } from 'node:crypto';
import type { Result } from 'ioredis';
import { burstOf, type RateLimitStore } from '../http/rate-limit.ts';
import type { SharedRedis } from './redis.ts';

/**
 * One token bucket, taken from atomically in one round trip: refilled for the time since it was last
 * used, one token taken if there is one, and kept only until it would be full again. Answers 0, or the
 * seconds until a token is back. The time is the replica's (replicas' clocks agree as NTP keeps them;
 * a clock behind never takes tokens back), so that the shared limit follows the same clock as the
 * memory one.
 */
const TAKE_SCRIPT = `
local burst = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = tonumber(bucket[1]) or burst
local updated = tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - updated) * perMs)
local wait = 0
if tokens < 1 then
  wait = math.max(1, math.ceil((1 - tokens) / perMs / 1000))
else
  tokens = tokens - 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perMs) + 1000)
return wait
`;

/**
 * A replica says it is there, and learns how many are: its id in a sorted set by the time it was last
 * seen, those not seen for `forgetMs` dropped.
 */
const PRESENT_SCRIPT = `
local now = tonumber(ARGV[2])
local forgetMs = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - forgetMs)
redis.call('PEXPIRE', KEYS[1], forgetMs)
return redis.call('ZCARD', KEYS[1])
`;

/** How often a replica says it is there (at most: only while it takes from the limit), and when one is forgotten. */
export const PRESENT_EVERY_MS = 10_000;
const FORGOTTEN_AFTER_MS = 3 * PRESENT_EVERY_MS;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    doclensTake(key: string, burst: number, perMs: number, now: number): Result<number, Context>;
    doclensPresent(key: string, id: string, now: number, forgetMs: number): Result<number, Context>;
  }
}

/**
 * A limit counted in Redis across replicas, with the same buckets and answers as the memory store;
 * while Redis is unavailable each replica counts in its own memory (`fallback`) rather than refuse or
 * let everything through, granting its share of the limit: each request there costs as many tokens as
 * there were replicas when Redis last said, so that together they grant one burst, not one each.
 */
export class RedisRateLimiter implements RateLimitStore {
  private readonly perMs: number;
  private readonly burst: number;
  private readonly id = randomUUID();
  /** Replicas of the deployment using this limit, as Redis last said. */
  private replicas = 1;
  private presentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly redis: SharedRedis,
    /** Which limit, in its keys: `client` or `external`. */
    private readonly name: string,
    private readonly perMinute: number,
    private readonly fallback: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
    this.burst = burstOf(perMinute);
    redis.define('doclensTake', TAKE_SCRIPT);
    redis.define('doclensPresent', PRESENT_SCRIPT);
  }

  take(key: string): number | Promise<number> {
    if (this.perMinute <= 0) return 0;
    this.present();
    return this.redis
      .run('rate_limit', (client) => client.doclensTake(`b:${this.name}:${key}`, this.burst, this.perMs, this.now()))
      .then((wait) => {
        if (typeof wait === 'number' && Number.isInteger(wait) && wait >= 0) return wait;
        if (wait !== undefined) this.redis.garbage('rate_limit');
        return this.fallback.take(key, this.replicas);
      });
  }

  /** Says this replica is there, every `PRESENT_EVERY_MS` at most, and keeps how many are. */
  private present(): void {
    const now = this.now();
    if (now - this.presentAt < PRESENT_EVERY_MS) return;
    this.presentAt = now;
    void this.redis
      .run('rate_limit', (client) => client.doclensPresent(`replicas:${this.name}`, this.id, now, FORGOTTEN_AFTER_MS))
      .then((count) => {
        if (typeof count === 'number' && Number.isInteger(count) && count >= 1) this.replicas = count;
      });
  }

  get bytes(): number {
    return this.fallback.bytes;
  }
}
