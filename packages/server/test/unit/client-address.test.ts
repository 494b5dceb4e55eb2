import { describe, expect, it } from 'vitest';
import { rateLimitAddress } from '../../src/security/client-address.js';

describe('rateLimitAddress', () => {
  it('keeps IPv4 and unwraps IPv4-mapped IPv6', () => {
    expect(rateLimitAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitAddress('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 by its /64, however the address is written', () => {
    const net = '2001:db8:85a3:8d3::/64';
    expect(rateLimitAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(net);
    expect(rateLimitAddress('2001:0db8:85a3:08d3:ffff::1')).toBe(net);
    expect(rateLimitAddress('2001:DB8:85A3:8D3::')).toBe(net);
    expect(rateLimitAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitAddress('2001:db8:85a3:8d4::1')).not.toBe(net);
  });
});
