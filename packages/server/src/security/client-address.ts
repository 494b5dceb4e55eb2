import { isIPv6 } from 'node:net';

/**
 * The address a rate limit counts for a client. IPv4 as is (IPv4-mapped IPv6 unwrapped, so one
 * client never has two names). IPv6 by its /64 network: one subscriber usually holds a whole /64,
 * and counting single addresses would let them rotate through 2^64 of them.
 */
export function rateLimitAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
