import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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

/**
 * The address a URL host names when it is an IP literal, in any form a resolver or a URL parser
 * accepts (dotted, shorthand `127.1`, decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.0.0.1`,
 * bracketed IPv6, IPv4-mapped `::ffff:7f00:1`, unspecified `0`, `::`), in canonical text; null for a
 * host name. IPv4-mapped IPv6 stays IPv6 (the guard refuses that whole range).
 */
export function ipLiteralOf(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return null;
  return ipaddr.parse(bare).toString();
}

/** Names that are loopback by definition (RFC 6761), whatever a resolver says. */
const isLoopbackName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/**
 * Whether a webhook host must be refused without asking DNS: a loopback name, or an IP literal
 * (any form, see `ipLiteralOf`) in a blocked range. Other names are checked on their resolved
 * addresses when delivering.
 */
export function isBlockedHost(hostname: string): boolean {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  if (host === '' || isLoopbackName(host)) return true;
  const ip = ipLiteralOf(host);
  return ip !== null && isBlockedAddress(ip);
}

/** The host of a URL as the guard reads it: bracketless, with an IP literal in canonical form. */
export function targetHostOf(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ipLiteralOf(host) ?? host;
}
