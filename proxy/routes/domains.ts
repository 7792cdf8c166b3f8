/**
 * Host patterns from the configuration: `name`, `name:port`, or `*.name` for its subdomains; or an
 * origin (`https://name:port`), which matches that scheme, host and port only.
 */
export class DomainList {
  constructor(private readonly patterns: readonly string[]) {}

  matches(url: URL): boolean {
    const hostname = url.hostname.toLowerCase();
    const host = url.host.toLowerCase();
    return this.patterns.some((pattern) => {
      if (pattern.includes('://')) return url.origin === pattern;
      if (pattern.startsWith('*.')) return hostname.endsWith(pattern.slice(1)) && hostname.length > pattern.length - 1;
      // A pattern without a port matches every port of that host.
      return /:\d+$/.test(pattern) && !pattern.endsWith(']') ? host === pattern : hostname === pattern;
    });
  }
}
