import { describe, expect, it } from 'vitest';
import { storedResponse } from '../http/cache.ts';
import { decodeEntry, encodeEntry } from './redis-responses.ts';

const entry = {
  ...storedResponse(
    200,
    Buffer.from('{"hello":"world"}'),
    'application/json',
    { ttl: 60, staleWhileRevalidate: 5, staleIfError: 50 },
    true,
    1000,
  ),
  encoded: { br: Buffer.from([1, 2, 3]), gzip: Buffer.from([4, 5]) },
};

describe('entries in Redis', () => {
  it('read back as written, compressed copies included', () => {
    expect(decodeEntry('key', encodeEntry('key', entry))).toEqual(entry);
    const plain = { ...entry, encoded: {} };
    expect(decodeEntry('key', encodeEntry('key', plain))).toEqual(plain);
  });

  it('read as a miss when the value is not what the proxy wrote for that key', () => {
    const value = encodeEntry('key', entry);
    expect(decodeEntry('other key', value)).toBeUndefined();
    expect(decodeEntry('key', value.subarray(0, value.length - 1))).toBeUndefined();
    expect(decodeEntry('key', Buffer.concat([value, Buffer.from('x')]))).toBeUndefined();
    expect(decodeEntry('key', Buffer.from('garbage'))).toBeUndefined();
    expect(decodeEntry('key', Buffer.from([0, 0, 0, 2, 0x7b, 0x7d]))).toBeUndefined();
    expect(decodeEntry('key', Buffer.alloc(0))).toBeUndefined();
  });
});
