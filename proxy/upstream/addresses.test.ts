import { describe, expect, it } from 'vitest';
import { isForbiddenAddress } from './addresses.ts';

/** The host as the fetcher checks it: what the URL parser makes of the address written in a URL. */
const hostOf = (written: string) => new URL(`http://${written}/`).hostname;

describe('isForbiddenAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, end of the range'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private, start of 172.16/12'],
    ['172.31.255.255', 'private, end of 172.16/12'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local: cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT, end'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network"'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking, end'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses IPv4 %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.255.0.1',
    '192.169.0.1',
    '198.20.0.1',
    '223.255.255.255',
  ])('allows the public IPv4 address %s, next to the forbidden ranges', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local, end of fe80::/10'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fc00::1', 'unique local'],
    ['fdff:ffff::1', 'unique local, end of fc00::/7'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard'],
    ['[::1]', 'loopback in brackets, as a URL host writes it'],
    ['0:0:0:0:0:0:0:1', 'loopback written in full'],
  ])('refuses IPv6 %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped, in hex'],
    ['::FFFF:A9FE:A9FE', 'IPv4-mapped metadata address, upper case'],
    ['0:0:0:0:0:ffff:10.0.0.1', 'IPv4-mapped, written in full'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::ffff:0:127.0.0.1', 'SIIT IPv4-translated'],
    ['::ffff:0:c0a8:101', 'SIIT IPv4-translated, in hex'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address, in hex'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['64:ff9b:1::1', 'local-use NAT64, refused whole'],
    ['64:ff9b:1:ffff::808:808', 'local-use NAT64 of a public address, refused whole'],
    ['2001::1', 'Teredo, refused whole'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo with a public server'],
  ])('refuses %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    ['2606:4700:4700::1111', 'public IPv6'],
    ['2001:4860:4860::8888', 'public IPv6 right after Teredo'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public address'],
    ['64:ff9b::808:808', 'NAT64 of a public address'],
    ['2002:808:808::1', '6to4 of a public address'],
    ['fe00::1', 'below link-local'],
  ])('allows %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('refuses the other notations of an IPv4 address, as the URL parser reads them', () => {
    for (const written of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '0x7f000001', '017700000001', '10.1', '0xa9.0xfe.0xa9.0xfe']) {
      expect(isForbiddenAddress(hostOf(written)), written).toBe(true);
    }
    expect(isForbiddenAddress(hostOf('134744072')), '8.8.8.8 as one number').toBe(false);
  });

  it('refuses IPv6 literals of URLs, which the URL parser normalizes to hex', () => {
    for (const written of ['[::ffff:127.0.0.1]', '[0:0:0:0:0:0:0:1]', '[::ffff:169.254.169.254]', '[64:ff9b::192.168.0.1]', '[FE80::1]']) {
      expect(isForbiddenAddress(hostOf(written)), written).toBe(true);
    }
  });

  it('leaves names to the DNS check: only IP addresses are classified here', () => {
    for (const name of ['localhost', 'example.org', 'metadata.google.internal', '', '127.0.0.1.nip.io']) {
      expect(isForbiddenAddress(name), name).toBe(false);
    }
  });
});
