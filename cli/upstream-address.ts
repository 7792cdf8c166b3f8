import { lookup } from 'node:dns/promises';
import { ConfigError, type ProxyConfig } from '../proxy/config.ts';
import { isForbiddenAddress } from '../proxy/upstream/addresses.ts';

/**
 * Refuses, at start-up, an upstream every address of which the proxy would refuse to connect to
 * (loopback, private, link-local) unless `--allow-private-network` is set: such a proxy would start
 * "ready" and answer every request with a 502. A name that does not resolve now is left to `/readyz`,
 * as DNS may come later than the proxy.
 */
export async function checkUpstreamAddress(config: ProxyConfig): Promise<void> {
  if (config.allowPrivateNetwork) return;
  const host = new URL(config.upstream).hostname.replace(/^\[|\]$/g, '');
  const addresses = await lookup(host, { all: true }).catch(() => []);
  if (addresses.length > 0 && addresses.every((entry) => isForbiddenAddress(entry.address)))
    throw new ConfigError(
      `--upstream ${config.upstream} is a loopback or private address (${addresses[0]!.address}), which the proxy refuses ` +
        'to connect to: add --allow-private-network (DOCLENS_ALLOW_PRIVATE_NETWORK=true) for a local upstream',
    );
}
