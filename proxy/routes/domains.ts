/** One configured host pattern, read once. */
type HostPattern = { origin: string } | { host: string; subdomains: boolean; port: string | undefined };

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

function parsePattern(pattern: string): HostPattern {
  if (pattern.includes('://')) return { origin: pattern };
  const subdomains = pattern.startsWith('*.');
  // A port follows the name, or the closing bracket of an IPv6 address.
  const [, host = '', port] = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(subdomains ? pattern.slice(2) : pattern) ?? [];
  return { host: host.toLowerCase(), subdomains, port: port === undefined ? undefined : String(Number(port)) };
}

/**
 * Host patterns from the configuration: `name` (any port), `name:port`, or `*.name` / `*.name:port`
 * for its subdomains; or an origin (`https://name:port`), which matches that scheme, host and port only.
 */
export class DomainList {
  private readonly patterns: HostPattern[];

  constructor(patterns: readonly string[]) {
    this.patterns = patterns.map(parsePattern);
  }

  matches(url: URL): boolean {
    const hostname = url.hostname.toLowerCase();
    // The URL parser drops a scheme's default port; a pattern may still name it.
    const port = url.port || DEFAULT_PORTS[url.protocol];
    return this.patterns.some((pattern) => {
      if ('origin' in pattern) return url.origin === pattern.origin;
      if (pattern.port !== undefined && pattern.port !== port) return false;
      if (!pattern.subdomains) return hostname === pattern.host;
      // A label before the dot: `.name` itself is no subdomain.
      return hostname.endsWith(`.${pattern.host}`) && hostname.length > pattern.host.length + 1;
    });
  }
}

/** Where an embed URL may be read from. */
export interface EmbedDomains {
  docs: DomainList;
  external: DomainList;
}
