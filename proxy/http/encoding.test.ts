import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chosenEncoding, COMPRESS_MIN_BYTES, encodedBodies } from './encoding.ts';

const both = { br: Buffer.from('b'), gzip: Buffer.from('g') };

describe('chosenEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0.5, identity;q=1', undefined],
    ['identity;q=0, gzip;q=0.2', 'gzip'],
    ['GZIP ; Q=1', 'gzip'],
    ['deflate', undefined],
  ])('%j → %s', (header, expected) => {
    expect(chosenEncoding(header, both)).toBe(expected);
  });

  it('only chooses among the copies there are', () => {
    expect(chosenEncoding('br, gzip', { gzip: both.gzip })).toBe('gzip');
    expect(chosenEncoding('br', { gzip: both.gzip })).toBeUndefined();
  });
});

describe('encodedBodies', () => {
  it('compresses JSON above the threshold in both encodings, each decoding to the body', async () => {
    const body = Buffer.from(JSON.stringify({ results: Array.from({ length: 100 }, (_, i) => ({ title: `Section ${i}` })) }));
    const bodies = await encodedBodies(body);
    expect(brotliDecompressSync(bodies.br!)).toEqual(body);
    expect(gunzipSync(bodies.gzip!)).toEqual(body);
    expect(bodies.br!.length).toBeLessThan(body.length / 4);
  });

  it('leaves small bodies, and bodies compression would not shrink, alone', async () => {
    expect(await encodedBodies(Buffer.from('{"a":1}'.padEnd(COMPRESS_MIN_BYTES - 1)))).toEqual({});
    const noise = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(Math.random() * 256)));
    expect(await encodedBodies(noise)).toEqual({});
  });
});
