import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { SharedLayer, SharedLock, StoredResponse } from '../http/cache.ts';
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
 * entry stops being usable even as stale, and every refresh lock after `lockMs`.
 */
export class RedisResponses implements SharedLayer {
  constructor(
    private readonly redis: SharedRedis,
    readonly lockMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async read(key: string): Promise<StoredResponse | undefined> {
    const value = await this.redis.run('cache_read', (client) => client.getBuffer(`r:${hashOf(key)}`));
    if (!value) return undefined;
    const entry = decodeEntry(key, value);
    if (!entry) this.redis.garbage('cache_read');
    return entry;
  }

  write(key: string, entry: StoredResponse): void {
    const lifetime = entry.staleUntil - this.now();
    if (lifetime <= 0) return;
    void this.redis.run('cache_write', (client) => client.set(`r:${hashOf(key)}`, encodeEntry(key, entry), 'PX', lifetime));
  }

  async lock(key: string): Promise<SharedLock> {
    const lockKey = `l:${hashOf(key)}`;
    const token = randomUUID();
    const taken = await this.redis.run('cache_lock', (client) => client.set(lockKey, token, 'PX', this.lockMs, 'NX'));
    if (taken === undefined) return { state: 'unavailable' };
    if (taken !== 'OK') return { state: 'held' };
    return {
      state: 'acquired',
      release: () => void this.redis.run('cache_unlock', (client) => client.eval(RELEASE_SCRIPT, 1, lockKey, token)),
    };
  }
}
