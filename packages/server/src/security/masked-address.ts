import { isIPv4, isIPv6 } from 'node:net';

/**
 * A client address with its last part hidden, as the sessions list shows it (docs/api.md, "Account
 * center"): IPv4 `203.0.113.x`; IPv6 its /48 network, `2001:db8:85a3::/48`; an IPv4-mapped IPv6
 * address as the IPv4 one. Enough to recognise a network, not to pick out a host.
 */
export function maskedAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  if (isIPv4(address)) return address.replace(/\.\d+$/, '.x');
  if (isIPv6(address)) {
    const groups = expandIPv6(address)
      .slice(0, 3)
      .map((g) => g.replace(/^0+(?=.)/, ''));
    return `${groups.join(':')}::/48`;
  }
  return '';
}

/** The eight groups of an IPv6 address, `::` filled in (a zone index, `%eth0`, dropped). */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (`::1.2.3.4`) is two groups.
  const last = right.length > 0 ? right : left;
  if (last.length > 0 && isIPv4(last.at(-1)!)) {
    const [a, b, c, d] = last.pop()!.split('.').map(Number) as [number, number, number, number];
    last.push(((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right];
}
