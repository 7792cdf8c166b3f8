import { BlockList, isIP } from 'node:net';

/**
 * Addresses a public proxy must never connect to: loopback, private, link-local (cloud metadata),
 * carrier-grade NAT, multicast, reserved and unspecified ranges, and IPv6 ranges that only lead into
 * private networks (local-use NAT64, Teredo tunnels).
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  ['64:ff9b:1::', 48],
  ['2001::', 32],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [before, after] = [parse(head), parse(tail ?? '')];
  return tail === undefined ? before : [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * Prefixes (as their leading groups) under which an IPv6 address carries an IPv4 address in its last
 * 32 bits, and reaches that address: IPv4-mapped, IPv4-compatible, SIIT IPv4-translated, NAT64.
 */
const CARRIES_IPV4 = [
  [0, 0, 0, 0, 0, 0xffff],
  [0, 0, 0, 0, 0, 0],
  [0, 0, 0, 0, 0xffff, 0],
  [0x64, 0xff9b, 0, 0, 0, 0],
];

/** The IPv4 address an IPv6 address reaches through translation or tunnelling (6to4 too), if any. */
function embeddedIpv4(groups: number[]): string | undefined {
  const quad = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');
  if (CARRIES_IPV4.some((prefix) => prefix.every((group, index) => groups[index] === group))) return quad(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return quad(groups[1]!, groups[2]!);
  return undefined;
}

/** True for an IP address (v4 or v6, brackets allowed) in a loopback, private or otherwise reserved range. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return FORBIDDEN.check(bare, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(ipv6Groups(bare));
  if (v4 !== undefined && FORBIDDEN.check(v4, 'ipv4')) return true;
  return FORBIDDEN.check(bare, 'ipv6');
}
