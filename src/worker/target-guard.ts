import { BlockList, isIP } from 'node:net';

/**
 * Addresses an outgoing webhook must never reach (SSRF guard): loopback, private,
 * link-local (cloud metadata included), CGNAT, multicast, reserved, NAT64,
 * documentation and every IPv4-mapped IPv6 address.
 *
 * Two separate lists on purpose: in one `net.BlockList`, an IPv6 rule for
 * `::ffff:0:0/96` also matches every plain IPv4 address (and IPv4 rules match their
 * IPv4-mapped forms), which would block the whole IPv4 internet.
 */
const IPV4_BLOCKED: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved
  ['255.255.255.255', 32], // broadcast
];

const IPV6_BLOCKED: ReadonlyArray<readonly [string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fe80::', 10], // link-local
  ['fc00::', 7], // unique local, incl. fd00:ec2::254 metadata
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64
  ['2001:db8::', 32], // documentation
  ['::ffff:0:0', 96], // IPv4-mapped, in any textual form
];

function buildList(rules: ReadonlyArray<readonly [string, number]>, family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of rules) list.addSubnet(network, prefix, family);
  return list;
}

const ipv4List = buildList(IPV4_BLOCKED, 'ipv4');
const ipv6List = buildList(IPV6_BLOCKED, 'ipv6');

/**
 * True when `ip` must not be connected to. Anything that is not a valid IP literal
 * (hostnames, bracketed forms, shorthand such as `127.1`, empty strings) is blocked.
 */
export function isBlockedAddress(ip: string): boolean {
  if (typeof ip !== 'string') return true;
  let candidate = ip.trim();
  // A zone id (`fe80::1%eth0`) is legal but BlockList does not match it: drop it.
  const zone = candidate.indexOf('%');
  if (zone !== -1) candidate = candidate.slice(0, zone);
  const family = isIP(candidate);
  if (family === 4) return ipv4List.check(candidate, 'ipv4');
  if (family === 6) return ipv6List.check(candidate, 'ipv6');
  return true;
}
