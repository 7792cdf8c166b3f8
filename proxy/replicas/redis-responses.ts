import { createHash, randomUUID } from 'node:crypto';
import type { Result } from 'ioredis';
import { z } from 'zod';
import type { SharedLayer, SharedLock, StoredResponse } from '../http/cache.ts';
import type { CircuitBreaker } from './circuit-breaker.ts';
import type { SharedRedis } from './redis.ts';

/**
 * What is stored beside the bytes. `key` is the full cache key, checked on reading: Redis keys are its
 * hash, and a value that is not what this proxy wrote reads as a miss.
 */
const headerSchema = z.strictObject({
  key: z.string(),
  status: z.number().int().min(100).max(599),
  contentType: z.string(),
  etag: z.string(),
  cacheControl: z.string(),
  storedAt: z.number(),
  freshUntil: z.number(),
  revalidateUntil: z.number(),
  staleUntil: z.number(),
  /** Byte lengths of the body, its brotli and its gzip copy, which follow the header in this order. */
  lengths: z.tuple([z.number().int().min(0), z.number().int().min(0), z.number().int().min(0)]),
});

/** Deletes a lock only if it is still the one this replica took (it may have expired and been taken again). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Stores a value only while the bytes written in its window stay within the window's share
 * (ARGV[3]), counted in KEYS[2]; answers 1 when stored, 0 when the budget is used up.
 */
const BUDGETED_SET_SCRIPT = `
local size = tonumber(ARGV[2])
local written = tonumber(redis.call('GET', KEYS[2]) or '0')
if written + size > tonumber(ARGV[3]) then return 0 end
redis.call('INCRBY', KEYS[2], size)
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
return 1
`;

/** What Redis spends on a key beside its name and value (its entry, object header and expiry), about. */
export const KEY_OVERHEAD_BYTES = 128;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    doclensBudgetedSet(
      key: string,
      windowKey: string,
      value: Buffer,
      size: number,
      share: number,
      lifetimeMs: number,
      windowLifetimeMs: number,
    ): Result<number, Context>;
  }
}

export interface RedisResponseLimits {
  /** How long a refresh lock lives. */
  lockMs: number;
  /** Bytes of answers the deployment keeps in Redis at most (`--redis-bytes`). */
  bytes: number;
  /** How long an answer stays in Redis at most (`--redis-ttl`). */
  ttlMs: number;
}

const hashOf = (key: string) => createHash('sha256').update(key).digest('base64url');

/** An entry as one value: a 4-byte header length, the JSON header, then the body and its compressed copies. */
export function encodeEntry(key: string, entry: StoredResponse): Buffer {
  const br = entry.encoded.br ?? Buffer.alloc(0);
  const gzip = entry.encoded.gzip ?? Buffer.alloc(0);
  const header = Buffer.from(
    JSON.stringify({
      key,
      status: entry.status,
      contentType: entry.contentType,
      etag: entry.etag,
      cacheControl: entry.cacheControl,
      storedAt: entry.storedAt,
      freshUntil: entry.freshUntil,
      revalidateUntil: entry.revalidateUntil,
      staleUntil: entry.staleUntil,
      lengths: [entry.body.length, br.length, gzip.length],
    }),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([size, header, entry.body, br, gzip]);
}

/** The entry stored under `key`, or undefined when the value is anything else. */
export function decodeEntry(key: string, value: Buffer): StoredResponse | undefined {
  if (value.length < 4) return undefined;
  const headerEnd = 4 + value.readUInt32BE(0);
  if (headerEnd > value.length) return undefined;
  let header: z.infer<typeof headerSchema>;
  try {
    header = headerSchema.parse(JSON.parse(value.subarray(4, headerEnd).toString('utf8')));
  } catch {
    return undefined;
  }
  const [bodyLength, brLength, gzipLength] = header.lengths;
  if (header.key !== key || headerEnd + bodyLength + brLength + gzipLength !== value.length) return undefined;
  const { key: _key, lengths: _lengths, ...fields } = header;
  // Copies, so that the entry does not keep the whole value alive through slices of it.
  const part = (start: number, length: number) => Buffer.from(value.subarray(start, start + length));
  const body = part(headerEnd, bodyLength);
  const encoded: StoredResponse['encoded'] = {};
  if (brLength) encoded.br = part(headerEnd + bodyLength, brLength);
  if (gzipLength) encoded.gzip = part(headerEnd + bodyLength + brLength, gzipLength);
  return { ...fields, body, encoded };
}

/**
 * Cached answers in Redis, the layer behind each replica's memory: every value expires when its
 * entry stops being usable even as stale or after `ttlMs`, whichever comes first, and every refresh
 * lock after `lockMs`. The bytes are bounded across replicas: time is cut in windows of `ttlMs`, and
 * the answers written in one window take at most half of `bytes` (counted in Redis). A value lives
 * `ttlMs` at most, so those in Redis at any time were written in the current window or the one
 * before. Its failures open a circuit of its own: a Redis refusing writes (full, `noeviction`)
 * stops the cache layer for a while, not the shared limits nor readiness.
 */
export class RedisResponses implements SharedLayer {
  readonly lockMs: number;
  private readonly breaker: CircuitBreaker;

  constructor(
    private readonly redis: SharedRedis,
    private readonly limits: RedisResponseLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.lockMs = limits.lockMs;
    this.breaker = redis.layerBreaker();
    redis.define('doclensBudgetedSet', BUDGETED_SET_SCRIPT, 2);
  }

  async read(key: string): Promise<StoredResponse | undefined> {
    const value = await this.redis.run('cache_read', (client) => client.getBuffer(`r:${hashOf(key)}`), this.breaker);
    if (!value) return undefined;
    const entry = decodeEntry(key, value);
    if (!entry) this.redis.garbage('cache_read');
    return entry;
  }

  write(key: string, entry: StoredResponse): void {
    const now = this.now();
    const { bytes, ttlMs } = this.limits;
    const lifetime = Math.min(entry.staleUntil - now, ttlMs);
    if (lifetime <= 0) return;
    const valueKey = `r:${hashOf(key)}`;
    const value = encodeEntry(key, entry);
    const size = value.length + valueKey.length + KEY_OVERHEAD_BYTES;
    const windowKey = `w:${Math.floor(now / ttlMs)}`;
    void this.redis.run(
      'cache_write',
      (client) => client.doclensBudgetedSet(valueKey, windowKey, value, size, Math.floor(bytes / 2), lifetime, 2 * ttlMs),
      this.breaker,
    );
  }

  async lock(key: string): Promise<SharedLock> {
    const lockKey = `l:${hashOf(key)}`;
    const token = randomUUID();
    const taken = await this.redis.run('cache_lock', (client) => client.set(lockKey, token, 'PX', this.lockMs, 'NX'), this.breaker);
    if (taken === undefined) return { state: 'unavailable' };
    if (taken !== 'OK') return { state: 'held' };
    return {
      state: 'acquired',
      release: () => void this.redis.run('cache_unlock', (client) => client.eval(RELEASE_SCRIPT, 1, lockKey, token), this.breaker),
    };
  }
}
