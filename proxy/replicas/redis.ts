import { Redis } from 'ioredis';
import type { Logger } from '../http/log.ts';
import type { Metrics } from '../http/metrics.ts';
import { CircuitBreaker } from './circuit-breaker.ts';

export interface RedisSettings {
  /** `redis://` or `rediss://` URL; a password in it wins over `password`. */
  url: string;
  password?: string;
  /** Milliseconds a command may take. */
  timeout: number;
  /** Put before every key, so that deployments sharing one Redis keep apart. */
  keyPrefix: string;
}

/** Failures in a row that make the proxy stop asking Redis, and for how long. */
export const FAILURES_TO_OPEN = 3;
export const OPEN_MS = 5_000;
/**
 * How long Redis has to be out of use without a break before `/readyz` says so: longer than one
 * opening of the circuit, so that a few commands timing out on a busy machine do not make a
 * balancer take every replica out and put it back (they serve from memory meanwhile).
 */
export const NOT_READY_AFTER_MS = 2 * OPEN_MS;
/** How often an open circuit checks whether its pause is over. */
const HEAL_CHECK_MS = 500;
/** Reconnection attempts back off to this pause. */
const LONGEST_RECONNECT_MS = 2_000;

/** The host and port of a Redis URL, for the log: never its password. */
export const redisAddress = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
};

/**
 * The Redis (or Valkey) connection replicas share, used so that it can never hold a request up for
 * long: each command gives up after `timeout` ms, commands fail at once while disconnected (no offline
 * queue piling up), and after a few failures a circuit breaker stops asking for a while. A caller gets
 * `undefined` for anything that did not work and goes on with memory and the upstream. Going down and
 * coming back are logged once each and read by `/readyz`.
 */
export class SharedRedis {
  private readonly client: Redis;
  private readonly breaker: CircuitBreaker;
  private connected = false;
  private closing = false;
  /** The state last logged; undefined until the first connection attempt ends. */
  private announced: boolean | undefined;
  /** The last thing that went wrong, for the log and `/readyz`. */
  private lastError = 'not connected yet';
  /** Since when Redis has been out of use (from the start, until it first connects); undefined while in use. */
  private downSince: number | undefined;
  /** While the circuit is open, a PING tries Redis again when the pause is over, traffic or not. */
  private readonly healing = setInterval(() => {
    if (this.connected && this.breaker.open) void this.run('ping', (client) => client.ping());
  }, HEAL_CHECK_MS).unref();

  constructor(
    settings: RedisSettings,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly now: () => number = Date.now,
  ) {
    this.downSince = now();
    const connectTimeout = Math.max(1_000, settings.timeout * 10);
    this.breaker = new CircuitBreaker(FAILURES_TO_OPEN, OPEN_MS, () => this.announce(), now);
    this.client = new Redis(settings.url, {
      password: settings.password,
      keyPrefix: settings.keyPrefix,
      commandTimeout: settings.timeout,
      connectTimeout,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, LONGEST_RECONNECT_MS),
      connectionName: 'doclens-proxy',
      // Commands of concurrent requests (a rate-limit check per request) leave in one write.
      enableAutoPipelining: true,
    });
    // A server that accepts connections but never answers sends no event: its silence is the news.
    setTimeout(() => {
      if (this.connected) return;
      if (this.lastError === 'not connected yet') this.lastError = `no answer within ${connectTimeout} ms`;
      this.announce();
    }, connectTimeout).unref();
    this.client.on('ready', () => {
      const first = this.announced === undefined;
      this.connected = true;
      this.announce();
      if (first) void this.warnOfUnboundedMemory();
    });
    // Connection errors repeat on every reconnection attempt: kept as the reason, logged once by announce().
    this.client.on('error', (error: Error) => {
      this.lastError = error.message;
    });
    this.client.on('close', () => {
      this.connected = false;
      if (this.lastError === 'not connected yet') this.lastError = 'connection closed';
      if (!this.closing) this.announce();
    });
  }

  /** Whether Redis is in use: connected, and not skipped after failures. */
  get up(): boolean {
    return this.connected && !this.breaker.open;
  }

  /**
   * Why Redis is not in use, for `/readyz`: only once it has been out of use for `NOT_READY_AFTER_MS`
   * without a break.
   */
  get downReason(): string | undefined {
    if (this.up || this.downSince === undefined || this.now() - this.downSince < NOT_READY_AFTER_MS) return undefined;
    if (!this.connected) return this.lastError;
    return `${FAILURES_TO_OPEN} commands in a row failed (${this.lastError})`;
  }

  /**
   * Runs `command` when Redis may be asked, within the command timeout; undefined when it may not,
   * or failed (counted in the metrics under `operation`, and by `breaker`: the connection's own,
   * which readiness and the shared limits follow, unless a layer brings its own).
   */
  async run<T>(operation: string, command: (client: Redis) => Promise<T>, breaker = this.breaker): Promise<T | undefined> {
    if (!this.connected || !breaker.allows()) return undefined;
    try {
      const result = await command(this.client);
      breaker.succeeded();
      return result;
    } catch (error) {
      this.lastError = (error as Error).message;
      this.metrics.redisError(operation);
      breaker.failed();
      return undefined;
    }
  }

  /** A circuit breaker for one layer's commands, opening as the connection's does but on that layer's failures only. */
  layerBreaker(): CircuitBreaker {
    return new CircuitBreaker(FAILURES_TO_OPEN, OPEN_MS, () => undefined, this.now);
  }

  /** Makes a Lua script of `keys` keys a command of the client, sent by its hash (EVALSHA) once Redis knows it. */
  define(name: string, script: string, keys = 1): void {
    if (!(name in this.client)) this.client.defineCommand(name, { numberOfKeys: keys, lua: script });
  }

  /** Counts an answer that made no sense (a key holding something else than what the proxy writes). */
  garbage(operation: string): void {
    this.metrics.redisError(operation);
  }

  close(): void {
    this.closing = true;
    clearInterval(this.healing);
    this.client.disconnect();
  }

  /**
   * Warns once connected when Redis itself bounds nothing (`maxmemory` 0) or refuses writes when full
   * (`noeviction`): doclens keeps its answers within `--redis-bytes`, but other users of the same
   * Redis do not, and refused writes are failures.
   */
  private async warnOfUnboundedMemory(): Promise<void> {
    const info = await this.run('info', (client) => client.info('memory'));
    if (info === undefined) return;
    const field = (name: string) => new RegExp(`^${name}:(\\S*)`, 'm').exec(info)?.[1];
    const maxmemory = Number(field('maxmemory') ?? Number.NaN);
    const policy = field('maxmemory_policy');
    if (maxmemory === 0) {
      this.logger.warn(
        { maxmemory, policy },
        'redis has no maxmemory: set one (and maxmemory-policy volatile-lru) so that Redis bounds its memory as a whole',
      );
    } else if (policy === 'noeviction') {
      this.logger.warn(
        { maxmemory, policy },
        'redis refuses writes when full (maxmemory-policy noeviction): set volatile-lru, every doclens key has an expiry',
      );
    }
  }

  private announce(): void {
    const up = this.up;
    if (up) this.downSince = undefined;
    else this.downSince ??= this.now();
    if (up === this.announced) return;
    const first = this.announced === undefined;
    this.announced = up;
    if (up) this.logger.info(first ? 'redis connected' : 'redis available again: shared cache and limits back in use');
    else this.logger.warn({ reason: this.downReason }, 'redis unavailable: answering from memory and the upstream, limits per replica');
  }
}
