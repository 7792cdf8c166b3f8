import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { DomainList } from './domains.ts';

/** The list as the proxy builds it: from patterns checked (and lower-cased) by the configuration. */
function listOf(...patterns: string[]): DomainList {
  return new DomainList(
    parseConfig({ upstream: 'https://api.example.org', credentials: 'session', projects: ['aurora'], docsDomains: patterns }).docsDomains,
  );
}

const matches = (list: DomainList, url: string) => list.matches(new URL(url));

describe('DomainList', () => {
  it('matches a name on every port and scheme, and nothing that only looks like it', () => {
    const list = listOf('docs.example.org');
    for (const url of ['https://docs.example.org/en/latest/', 'http://docs.example.org/', 'https://docs.example.org:8443/x'])
      expect(matches(list, url), url).toBe(true);
    for (const url of [
      'https://sub.docs.example.org/',
      'https://docs.example.org.evil.test/',
      'https://evildocs.example.org/',
      'https://example.org/',
      'https://docs.example.org@evil.test/',
    ]) {
      expect(matches(list, url), url).toBe(false);
    }
  });

  it('matches a name with a port on that port only, the scheme default port included', () => {
    const list = listOf('docs.example.org:8443', 'plain.example.org:443', 'web.example.org:80');
    expect(matches(list, 'https://docs.example.org:8443/')).toBe(true);
    expect(matches(list, 'https://docs.example.org/')).toBe(false);
    expect(matches(list, 'https://docs.example.org:9443/')).toBe(false);
    // The URL parser drops a scheme's default port: `https://plain.example.org/` is on 443.
    expect(matches(list, 'https://plain.example.org/')).toBe(true);
    expect(matches(list, 'https://plain.example.org:443/')).toBe(true);
    expect(matches(list, 'http://plain.example.org/')).toBe(false);
    expect(matches(list, 'http://web.example.org/')).toBe(true);
    expect(matches(list, 'https://web.example.org/')).toBe(false);
  });

  it('matches the subdomains of a `*.` pattern at any depth, not the name itself nor look-alikes', () => {
    const list = listOf('*.readthedocs.example');
    for (const url of ['https://aurora.readthedocs.example/', 'https://a.b.readthedocs.example:8080/'])
      expect(matches(list, url), url).toBe(true);
    for (const url of [
      'https://readthedocs.example/',
      'https://.readthedocs.example/',
      'https://evilreadthedocs.example/',
      'https://aurora.readthedocs.example.evil.test/',
    ]) {
      expect(matches(list, url), url).toBe(false);
    }
  });

  it('matches the subdomains of a `*.` pattern with a port on that port only', () => {
    const list = listOf('*.docs.example:8443');
    expect(matches(list, 'https://aurora.docs.example:8443/')).toBe(true);
    expect(matches(list, 'https://aurora.docs.example/')).toBe(false);
  });

  it('ignores letter case in patterns and URLs', () => {
    const list = listOf('Docs.Example.ORG', '*.Hosted.Example');
    expect(matches(list, 'https://DOCS.example.org/Page.html')).toBe(true);
    expect(matches(list, 'https://Aurora.HOSTED.example/')).toBe(true);
  });

  it('matches internationalized names by their ASCII form, as the URL parser writes them', () => {
    const list = listOf('xn--bcher-kva.example', '*.xn--mnchen-3ya.example');
    expect(matches(list, 'https://bücher.example/')).toBe(true);
    expect(matches(list, 'https://BÜCHER.example/')).toBe(true);
    expect(matches(list, 'https://docs.münchen.example/')).toBe(true);
    expect(matches(list, 'https://bucher.example/')).toBe(false);
  });

  it('matches an origin pattern on its scheme, host and port only', () => {
    const list = new DomainList(['https://api.example.org']);
    expect(matches(list, 'https://api.example.org/en/latest/')).toBe(true);
    expect(matches(list, 'https://API.example.org:443/')).toBe(true);
    expect(matches(list, 'http://api.example.org/')).toBe(false);
    expect(matches(list, 'https://api.example.org:8443/')).toBe(false);
    expect(matches(list, 'https://docs.api.example.org/')).toBe(false);
  });

  it('matches IPv6 hosts with and without a port', () => {
    const list = listOf('[::1]', '[2001:db8::5]:8080');
    expect(matches(list, 'http://[::1]:3000/')).toBe(true);
    expect(matches(list, 'http://[2001:db8::5]:8080/')).toBe(true);
    expect(matches(list, 'http://[2001:db8::5]:8081/')).toBe(false);
  });

  it('matches nothing when empty', () => {
    expect(matches(new DomainList([]), 'https://docs.example.org/')).toBe(false);
  });
});
