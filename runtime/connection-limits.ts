/** How long a client has by default to send its request headers: the proxy's `--header-timeout`, the docs host's. */
export const HEADER_TIMEOUT_MS = 10_000;
/** Client connections open at once by default: the proxy's `--max-connections`, the docs host's. */
export const MAX_CONNECTIONS = 1000;

/** The options of `http.createServer` that hold clients to `headerTimeout` ms for their headers. */
export function headerTimeoutOptions(headerTimeout: number) {
  return {
    requestTimeout: Math.max(30_000, headerTimeout),
    headersTimeout: headerTimeout,
    // Node checks both timeouts only this often (30 s by default), which would let slow senders outstay them.
    connectionsCheckingInterval: Math.min(1000, Math.ceil(headerTimeout / 2)),
  };
}
