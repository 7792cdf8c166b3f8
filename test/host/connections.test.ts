import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHost, type RunningHost } from '../../host/app.ts';
import { loadManifest } from '../../host/manifest.ts';
import { demoManifest } from '../fixtures/demo.ts';

/** The docs host holds clients to the proxy's limits: headers within the header timeout, connections capped. */
let host: RunningHost;
const sockets: Socket[] = [];

beforeAll(async () => {
  host = await startHost({
    manifest: loadManifest(demoManifest),
    token: 'test-token-0123456789',
    port: 0,
    headerTimeout: 300,
    maxConnections: 3,
  });
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await host.close();
});

/** A connection that sends `bytes`; `closed` tells whether the host has closed it since. */
function connection(bytes: string): Promise<{ closed: () => boolean; socket: Socket }> {
  return new Promise((resolve) => {
    let closed = false;
    const socket = connect(Number(new URL(host.apiUrl).port), '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    socket.on('data', () => undefined);
    socket.on('connect', () => socket.write(bytes, () => resolve({ closed: () => closed, socket })));
  });
}

describe('the docs host', () => {
  it('closes a connection whose headers trickle past the header timeout', async () => {
    const slow = await connection('GET /api/v3/projects/ HTTP/1.1\r\nHost: x\r\n');
    expect(slow.closed()).toBe(false);
    await vi.waitFor(() => expect(slow.closed()).toBe(true), { timeout: 5000, interval: 50 });
  });

  it('caps the connections open at once', async () => {
    const held = await Promise.all([1, 2, 3].map(() => connection('')));
    const extra = await connection('');
    await vi.waitFor(() => expect(extra.closed()).toBe(true), { timeout: 2000, interval: 20 });
    expect(held.some((one) => one.closed())).toBe(false);
    for (const one of held) one.socket.destroy();
  });
});
