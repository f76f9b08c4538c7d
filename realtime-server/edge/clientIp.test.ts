import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { clientKey, proxyTrust, requestClientKey } from './clientIp';

/**
 * The key a client is counted under (sign-in limits, link limits): IPv4 as it is, IPv6 by
 * its /64, IPv4-mapped IPv6 as the IPv4 it carries.
 */

describe('clientKey', () => {
  it.each([
    ['an IPv4 address as it is', '203.0.113.9', '203.0.113.9'],
    ['an IPv4 address with spaces around it', ' 203.0.113.9 ', '203.0.113.9'],
    ['an IPv4 address with a port', '203.0.113.9:5678', '203.0.113.9'],
    ['a full IPv6 address by its /64', '2001:0db8:0001:0002:0003:0004:0005:0006', '2001:db8:1:2::/64'],
    ['an upper-case IPv6 address', '2001:DB8:1:2:A:B:C:D', '2001:db8:1:2::/64'],
    ['a compressed IPv6 address (:: in the interface half)', '2001:db8:1:2::6', '2001:db8:1:2::/64'],
    ['a compressed IPv6 address (:: across both halves)', '2001:db8::1', '2001:db8::/64'],
    ['a compressed IPv6 address (:: in the network half)', '2001::1:0:0:1', '2001::/64'],
    ['a compressed IPv6 address whose /64 ends in a group that is not zero', '2001::1:0:0:0:1', '2001:0:0:1::/64'],
    ['the loopback ::1', '::1', '::/64'],
    ['a bracketed IPv6 address with a port', '[2001:db8:1:2::7]:443', '2001:db8:1:2::/64'],
    ['an IPv6 address with a zone', 'fe80::1%eth0', 'fe80::/64'],
    ['an IPv6 address with an embedded IPv4 tail', '2001:db8:5:6::192.0.2.1', '2001:db8:5:6::/64'],
    ['a NAT64 address (embedded IPv4) by its /64, not as IPv4', '64:ff9b::192.0.2.33', '64:ff9b::/64'],
    ['an IPv4-mapped IPv6 address as IPv4', '::ffff:198.51.100.7', '198.51.100.7'],
    ['an IPv4-mapped IPv6 address in hex as IPv4', '::ffff:c000:0201', '192.0.2.1'],
    ['an IPv4-mapped IPv6 address in full as IPv4', '0:0:0:0:0:FFFF:C000:0201', '192.0.2.1'],
  ])('keys %s', (_what, ip, key) => expect(clientKey(ip)).toBe(key));

  it('puts addresses inside one /64 together and addresses in different /64s apart', () => {
    const inOne = ['2001:db8:aa:1::1', '2001:db8:aa:1:ffff:ffff:ffff:ffff', '2001:db8:aa:1:1234:5678:9abc:def0', '2001:0db8:00aa:0001::'];
    expect(new Set(inOne.map(clientKey)).size).toBe(1);
    const neighbours = ['2001:db8:aa:1::1', '2001:db8:aa:2::1', '2001:db8:ab:1::1', '2001:db9:aa:1::1'];
    expect(new Set(neighbours.map(clientKey)).size).toBe(4);
  });

  it('keeps IPv4 addresses apart, even next to each other', () => {
    expect(clientKey('198.51.100.1')).not.toBe(clientKey('198.51.100.2'));
  });

  it.each([
    ['no address (the peer is unknown)', 'unknown', 'unknown'],
    ['an empty string', '', 'unknown'],
    ['garbage', 'not an address', 'not an address'],
    ['an IPv4 address in a short form that is no address here', '127.1', '127.1'],
    ['an IPv4 address with a leading zero', '010.0.0.1', '010.0.0.1'],
    ['an IPv6 address with too many groups', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7:8:9'],
  ])('keeps %s as it is (no client shares it by accident)', (_what, ip, key) => expect(clientKey(ip)).toBe(key));
});

describe('requestClientKey', () => {
  const ctx = (peer: string, xff?: string) => ({ req: { socket: { remoteAddress: peer }, headers: xff ? { 'x-forwarded-for': xff } : {} } }) as unknown as Context;
  const behindProxy = proxyTrust(loadConfig({ TRUSTED_PROXY: '127.0.0.1,::1' }).trustedProxies);
  const direct = proxyTrust(loadConfig({}).trustedProxies);

  it('groups the client the trusted proxy names by its /64', () => {
    expect(requestClientKey(ctx('127.0.0.1', '2001:db8:7:8::42'), behindProxy)).toBe('2001:db8:7:8::/64');
    expect(requestClientKey(ctx('::1', '198.51.100.3'), behindProxy)).toBe('198.51.100.3');
  });

  it('groups the peer by its /64 without a trusted proxy, and reads a mapped peer as IPv4', () => {
    expect(requestClientKey(ctx('2001:db8:7:8::42', '198.51.100.3'), direct)).toBe('2001:db8:7:8::/64');
    expect(requestClientKey(ctx('::ffff:203.0.113.4'), direct)).toBe('203.0.113.4');
  });
});
