import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** `::ffff:1.2.3.4` → `1.2.3.4`; a port (`1.2.3.4:567`, `[::1]:567`) is dropped. */
export function normalizeIp(raw: string): string {
  let ip = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (bracketed) ip = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(':'));
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(ip);
  return (mapped ? mapped[1] : ip).toLowerCase();
}

export interface ProxyTrust { trusts(ip: string): boolean }

/** TRUSTED_PROXY entries: addresses (`10.0.0.5`, `::1`) or subnets (`10.0.0.0/8`). */
export function proxyTrust(entries: string[]): ProxyTrust {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [addr, prefix] = entry.split('/');
    const ip = normalizeIp(addr);
    const family = net.isIP(ip);
    if (!family) throw new Error(`TRUSTED_PROXY: "${entry}" is not an IP address or subnet`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(prefix), type);
  }
  return {
    trusts(ip) {
      const family = net.isIP(ip);
      return family !== 0 && entries.length > 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy (entries further left
 * were written by the client and may be anything).
 */
export function clientIp(peer: string | undefined, forwardedFor: string | undefined, trust: ProxyTrust): string {
  let ip = normalizeIp(peer ?? '') || 'unknown';
  if (!forwardedFor || !trust.trusts(ip)) return ip;
  const hops = forwardedFor.split(',').map(normalizeIp).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!net.isIP(hops[i])) return ip; // garbage behind a trusted hop: keep the last address we believe
    ip = hops[i];
    if (!trust.trusts(ip)) return ip;
  }
  return ip; // every hop is a trusted proxy: the left-most one
}

/** The client address of an HTTP request (a REST call or a socket's handshake) under this server's TRUSTED_PROXY (`RateLimits.proxies`). */
export function peerIp(req: Pick<IncomingMessage, 'headers' | 'socket'>, trust: ProxyTrust): string {
  const forwarded = req.headers['x-forwarded-for'];
  return clientIp(req.socket.remoteAddress, (Array.isArray(forwarded) ? forwarded.join(',') : forwarded) || undefined, trust);
}

/**
 * The key a client is counted under (sign-in and link limits). An IPv4 address is itself. An
 * IPv6 address is its /64 (`2001:db8:1:2::/64`): one subscriber or host gets a whole /64, so
 * an attacker rotating addresses inside it stays one client. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, in any notation) is the IPv4 it carries. A string that is no address
 * (`unknown`) is its own key.
 */
export function clientKey(ip: string): string {
  const text = normalizeIp(ip).replace(/%.*$/, ''); // a zone (`fe80::1%eth0`) names an interface, not a client
  const family = net.isIP(text);
  if (family === 0) return text || 'unknown';
  const addr = ipaddr.parse(text);
  if (addr.kind() === 'ipv4') return addr.toString();
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${text}/64`).toString()}/64`;
}

/** The client key (see clientKey) of a REST call or a socket's handshake (a Koa context or anything holding `req`). */
export const requestClientKey = (ctx: { req: Pick<IncomingMessage, 'headers' | 'socket'> }, trust: ProxyTrust): string =>
  clientKey(peerIp(ctx.req, trust));
