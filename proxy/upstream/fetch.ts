import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, errors as undiciErrors, request } from 'undici';
import { isForbiddenAddress } from './addresses.ts';

export interface FetchLimits {
  /** Milliseconds to open a connection. */
  connectTimeout: number;
  /** Milliseconds for the whole call: connections, redirects, headers and body. */
  deadline: number;
  maxBytes: number;
  /**
   * Bytes of response bodies being read at once, across all requests, so that many large answers at
   * once cannot take memory without bound: a body of declared length waits its turn for room (until
   * the call's deadline), one of unknown length that would go past it is dropped (`overloaded`). The
   * bodies waiting are `WAITING_SHARES` times as many bytes at most: past that, one is dropped at once.
   */
  maxBytesInFlight: number;
  maxRedirects: number;
}

export type FetchFailure =
  | 'timeout'
  | 'unreachable'
  | 'too_large'
  | 'overloaded'
  | 'redirect_refused'
  | 'too_many_redirects'
  | 'forbidden_address';

/** A body's chunks as one buffer. */
export const joined = (chunks: Buffer[]): Buffer => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));

/** A request that produced no usable response. Its message never holds request headers. */
export class FetchError extends Error {
  override name = 'FetchError';
  constructor(
    readonly failure: FetchFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface FetchedResponse {
  status: number;
  /** The URL that answered, after redirects. */
  url: string;
  contentType: string;
  /** The body as it came, in chunks: a large one goes on in pieces (to a thread), never copied whole. */
  chunks: Buffer[];
  /** Lets go of the body's bytes in flight: a no-op unless the request asked to `hold` them. */
  release(): void;
}

export interface FetchRequest {
  url: string;
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  /** Whether a redirect may go to this URL. The request's headers go only to its own origin. */
  allowRedirect(target: URL): boolean;
  signal?: AbortSignal;
  /**
   * Whether the body's bytes stay counted in flight once read, until `release`: for a body whose work
   * (parsing, rebuilding, compressing) takes memory of its size for a while after it arrived.
   */
  hold?: boolean;
}

/** A DNS lookup that refuses names resolving to loopback, private or link-local addresses. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: LookupOneOptions | LookupAllOptions, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const allowed = allowPrivate ? addresses : addresses.filter((entry) => !isForbiddenAddress(entry.address));
      if (allowed.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EDOCLENSFORBIDDEN' });
        return callback(refused);
      }
      if ((options as LookupAllOptions).all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  }) as LookupFunction;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Bodies waiting for room, in multiples of the bytes in flight: more would mostly wait in vain until
 * their deadline, holding a connection each, and then fail all at once (200 answers of 9.5 MB for 20 MB
 * in flight): they are refused as they come instead.
 */
const WAITING_SHARES = 4;

/**
 * The one way the proxy makes HTTP requests: bounded in time and size, redirects followed by hand
 * (each target checked), and no connection to a private address unless `allowPrivateNetwork`.
 */
export class Fetcher {
  private readonly agent: Agent;
  private inFlight = 0;
  /** Bodies of declared length waiting for room among the bytes in flight, first come first served. */
  private readonly waiting: { bytes: number; admit(): void }[] = [];
  private waitingBytes = 0;

  constructor(
    private readonly limits: FetchLimits,
    private readonly allowPrivateNetwork: boolean,
  ) {
    this.agent = new Agent({
      connect: { timeout: limits.connectTimeout, lookup: guardedLookup(allowPrivateNetwork) },
      headersTimeout: limits.deadline,
      bodyTimeout: limits.deadline,
      keepAliveTimeout: 10_000,
      connections: 64,
    });
  }

  async fetch(options: FetchRequest): Promise<FetchedResponse> {
    let url = new URL(options.url);
    const origin = url.origin;
    // One deadline for the whole call, so a trickling body or a chain of redirects cannot stretch it.
    const deadline = AbortSignal.timeout(this.limits.deadline);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    for (let redirects = 0; ; redirects++) {
      this.checkAddress(url);
      const headers = url.origin === origin ? options.headers : undefined;
      const response = await this.once(url, options.method ?? 'GET', headers, signal, deadline, options.hold === true);
      if (!REDIRECTS.has(response.status) || !response.location) return { ...response, url: url.href };
      if (redirects >= this.limits.maxRedirects)
        throw new FetchError('too_many_redirects', `more than ${this.limits.maxRedirects} redirects`);
      let target: URL;
      try {
        target = new URL(response.location, url);
      } catch {
        throw new FetchError('redirect_refused', 'a redirect to an invalid URL');
      }
      if (!/^https?:$/.test(target.protocol) || !options.allowRedirect(target)) {
        throw new FetchError('redirect_refused', `a redirect to ${target.host} is not allowed`);
      }
      url = target;
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** Bytes of response bodies being read now (held until the call that reads them returns). */
  get bytesInFlight(): number {
    return this.inFlight;
  }

  /** Counts `bytes` more of a body being read, or throws when they would go past `maxBytesInFlight`. */
  private reserve(bytes: number): void {
    if (this.inFlight + bytes > this.limits.maxBytesInFlight)
      throw new FetchError('overloaded', `more than ${this.limits.maxBytesInFlight} bytes of responses are being read at once`);
    this.inFlight += bytes;
  }

  /**
   * Counts a body of declared length once there is room for all of it, after the bodies that waited
   * before it: its socket is left unread meanwhile, so that waiting takes no memory. Gives up with `signal`.
   */
  private reserveInTurn(bytes: number, signal: AbortSignal): Promise<void> {
    if (this.waiting.length === 0 && this.inFlight + bytes <= this.limits.maxBytesInFlight) {
      this.inFlight += bytes;
      return Promise.resolve();
    }
    if (this.waitingBytes + bytes > WAITING_SHARES * this.limits.maxBytesInFlight)
      return Promise.reject(new FetchError('overloaded', `more than ${WAITING_SHARES} times the bytes in flight are waiting for room`));
    return new Promise((resolve, reject) => {
      const waiter = {
        bytes,
        admit: () => {
          signal.removeEventListener('abort', giveUp);
          resolve();
        },
      };
      const giveUp = () => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        this.waitingBytes -= bytes;
        reject(signal.reason);
        // The bodies behind it may fit now.
        this.free(0);
      };
      signal.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(waiter);
      this.waitingBytes += bytes;
    });
  }

  /** Counts `bytes` no longer in flight, and lets the waiting bodies that fit now in, in turn. */
  private free(bytes: number): void {
    this.inFlight -= bytes;
    for (let next = this.waiting[0]; next && this.inFlight + next.bytes <= this.limits.maxBytesInFlight; next = this.waiting[0]) {
      this.waiting.shift();
      this.waitingBytes -= next.bytes;
      this.inFlight += next.bytes;
      next.admit();
    }
  }

  /** IP literals never reach the DNS lookup, so they are checked here. */
  private checkAddress(url: URL): void {
    if (!this.allowPrivateNetwork && isIP(url.hostname.replace(/^\[|\]$/g, '')) && isForbiddenAddress(url.hostname)) {
      throw new FetchError('forbidden_address', `${url.host} is a private address`);
    }
  }

  private async once(
    url: URL,
    method: 'GET' | 'HEAD',
    headers: Record<string, string> | undefined,
    signal: AbortSignal,
    deadline: AbortSignal,
    hold: boolean,
  ) {
    try {
      const response = await request(url, {
        method,
        headers: { 'user-agent': 'doclens-proxy', ...headers },
        dispatcher: this.agent,
        signal,
      });
      const location = response.headers.location;
      const contentType = response.headers['content-type'];
      if (REDIRECTS.has(response.statusCode)) {
        response.body.resume();
        return {
          status: response.statusCode,
          location: typeof location === 'string' ? location : undefined,
          contentType: '',
          chunks: [],
          release: () => undefined,
        };
      }
      const declared = Number(response.headers['content-length']);
      if (declared > this.limits.maxBytes) {
        response.body.destroy();
        throw new FetchError('too_large', `the response is larger than ${this.limits.maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      // What this body holds of the bytes in flight: its declared length at once, the rest as it comes.
      let reserved = 0;
      try {
        if (declared > 0) {
          await this.reserveInTurn(declared, signal).catch((error: unknown) => {
            // No room in time is the proxy's load, not the upstream's slowness: 503 with Retry-After, not 504.
            throw deadline.aborted
              ? new FetchError('overloaded', `no room among the bytes in flight for a ${declared}-byte body in time`)
              : error;
          });
          reserved = declared;
        }
        for await (const chunk of response.body) {
          size += (chunk as Buffer).length;
          if (size > this.limits.maxBytes) throw new FetchError('too_large', `the response is larger than ${this.limits.maxBytes} bytes`);
          if (size > reserved) {
            this.reserve(size - reserved);
            reserved = size;
          }
          chunks.push(chunk as Buffer);
        }
        const held = hold ? reserved : 0;
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          this.free(held);
        };
        reserved -= held;
        return {
          status: response.statusCode,
          location: undefined,
          contentType: typeof contentType === 'string' ? contentType : '',
          chunks,
          release,
        };
      } catch (error) {
        response.body.destroy();
        throw error;
      } finally {
        this.free(reserved);
      }
    } catch (error) {
      throw this.failureOf(error, url, deadline);
    }
  }

  private failureOf(error: unknown, url: URL, deadline: AbortSignal): FetchError {
    if (error instanceof FetchError) return error;
    const code = (error as { code?: string }).code;
    if (code === 'EDOCLENSFORBIDDEN') return new FetchError('forbidden_address', `${url.hostname} resolves to a private address`);
    if (
      deadline.aborted ||
      error instanceof undiciErrors.ConnectTimeoutError ||
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError
    ) {
      return new FetchError('timeout', `${url.host} did not answer in time`);
    }
    return new FetchError('unreachable', `${url.host} could not be reached (${code ?? (error as Error).name})`);
  }
}
