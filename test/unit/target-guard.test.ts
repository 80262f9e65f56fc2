import { describe, expect, it } from 'vitest';
import { ipLiteralOf, isBlockedAddress, isBlockedHost } from '../../src/domain/webhooks/target-guard.js';

/** Per blocked range: its first and last address plus a notable one inside. */
const BLOCKED: Record<string, string[]> = {
  '0.0.0.0/8': ['0.0.0.0', '0.1.2.3', '0.255.255.255'],
  '10.0.0.0/8': ['10.0.0.0', '10.1.2.3', '10.255.255.255'],
  '100.64.0.0/10 (CGNAT)': ['100.64.0.0', '100.100.100.200', '100.127.255.255'],
  '127.0.0.0/8': ['127.0.0.1', '127.0.0.0', '127.255.255.255'],
  '169.254.0.0/16 (link-local, metadata)': ['169.254.169.254', '169.254.0.0', '169.254.255.255'],
  '172.16.0.0/12': ['172.16.0.0', '172.20.1.1', '172.31.255.255'],
  '192.0.0.0/24': ['192.0.0.0', '192.0.0.170', '192.0.0.255'],
  '192.168.0.0/16': ['192.168.0.0', '192.168.1.1', '192.168.255.255'],
  '198.18.0.0/15': ['198.18.0.0', '198.19.255.255'],
  '224.0.0.0/4 (multicast)': ['224.0.0.1', '239.255.255.250'],
  '240.0.0.0/4': ['240.0.0.0', '250.1.2.3', '255.255.255.254'],
  '255.255.255.255': ['255.255.255.255'],
  '::/128': ['::', '0:0:0:0:0:0:0:0'],
  '::1/128': ['::1', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001'],
  'fe80::/10': ['fe80::1', 'fe80::1%eth0', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'FE80::ABCD'],
  'fc00::/7 (incl. metadata)': ['fc00::', 'fd00:ec2::254', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  'ff00::/8 (multicast)': ['ff02::1', 'ff05::1:3', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  '64:ff9b::/96 (NAT64)': ['64:ff9b::', '64:ff9b::808:808', '64:ff9b::7f00:1'],
  '2001:db8::/32': ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  '::ffff:0:0/96 (IPv4-mapped, any form)': [
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '0000:0000:0000:0000:0000:FFFF:7F00:0001',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '::ffff:8.8.8.8', // even a public IPv4 address is refused in mapped form
    '::ffff:0:0',
    '::ffff:ffff:ffff',
  ],
};

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '9.9.9.9',
  '93.184.216.34',
  '11.0.0.1', // just past 10/8
  '100.63.255.255', // just before CGNAT
  '100.128.0.0', // just after CGNAT
  '126.255.255.255', // just before 127/8
  '128.0.0.0', // just after 127/8
  '169.253.255.255',
  '172.15.255.255', // just before 172.16/12
  '172.32.0.0', // just after 172.16/12
  '192.0.1.0', // just after 192.0.0/24
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255', // just before multicast
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:82b::200e',
  '::2', // next to loopback
  'fec0::1', // just past fe80::/10
  'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', // just before fe80::/10
  'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', // just before fc00::/7
  'fe00::1', // between fc00::/7 and fe80::/10
  '64:ff9b::1:0:0', // just past 64:ff9b::/96
  '2001:db9::1', // just past 2001:db8::/32
  '::fffe:7f00:1', // not the mapped prefix
];

const GARBAGE = [
  '',
  ' ',
  'localhost',
  'example.com',
  '127.1', // shorthand a resolver would expand to 127.0.0.1
  '0x7f.0.0.1',
  '2130706433', // 127.0.0.1 as an integer
  '017.0.0.1',
  '256.0.0.1',
  '1.2.3',
  '1.2.3.4.5',
  '[::1]',
  '::1::',
  'fe80::1%',
  'gggg::1',
  'null',
  'undefined',
];

describe('isBlockedAddress', () => {
  for (const [range, addresses] of Object.entries(BLOCKED)) {
    it.each(addresses)(`blocks ${range}: %s`, (address) => {
      expect(isBlockedAddress(address)).toBe(true);
    });
  }

  it.each(ALLOWED)('allows the public address %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it.each(GARBAGE)('blocks what is not an IP address: %j', (value) => {
    expect(isBlockedAddress(value)).toBe(true);
  });

  it('blocks non-string input without throwing', () => {
    expect(isBlockedAddress(undefined as unknown as string)).toBe(true);
    expect(isBlockedAddress(null as unknown as string)).toBe(true);
    expect(isBlockedAddress(2130706433 as unknown as string)).toBe(true);
  });
});

/** A URL's host (as `new URL` gives it, or as typed) in every notation: the address it names. */
const NOTATIONS: Array<[string, string]> = [
  ['127.0.0.1', '127.0.0.1'],
  ['127.1', '127.0.0.1'],
  ['2130706433', '127.0.0.1'],
  ['0177.0.0.1', '127.0.0.1'],
  ['0x7f.0.0.1', '127.0.0.1'],
  ['[::1]', '::1'],
  ['[::ffff:7f00:1]', '::ffff:7f00:1'],
  ['0.0.0.0', '0.0.0.0'],
  ['0', '0.0.0.0'],
  ['[::]', '::'],
  ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
];

describe('ipLiteralOf and isBlockedHost', () => {
  it.each(NOTATIONS)('reads %s as %s and blocks it', (host, address) => {
    expect(ipLiteralOf(host)).toBe(address);
    expect(isBlockedHost(host)).toBe(true);
  });

  it.each(['localhost', 'LOCALHOST', 'localhost.', 'api.localhost', ''])('blocks the loopback name %j', (host) => {
    expect(isBlockedHost(host)).toBe(true);
  });

  it.each(['8.8.8.8', '[2606:4700:4700::1111]', 'hooks.example.com', 'localhost.example.com', '127.0.0.1.example.com'])(
    'leaves %s to delivery (a public address, or a name checked on its resolved addresses)',
    (host) => {
      expect(isBlockedHost(host)).toBe(false);
    },
  );

  it('names are not literals', () => {
    expect(ipLiteralOf('hooks.example.com')).toBeNull();
  });
});
