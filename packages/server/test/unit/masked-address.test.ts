import { describe, expect, it } from 'vitest';
import { maskedAddress } from '../../src/security/masked-address.js';

describe('maskedAddress', () => {
  it('hides the last part of an IPv4 address, and of one mapped into IPv6', () => {
    expect(maskedAddress('203.0.113.77')).toBe('203.0.113.x');
    expect(maskedAddress('::ffff:198.51.100.7')).toBe('198.51.100.x');
    expect(maskedAddress('127.0.0.1')).toBe('127.0.0.x');
  });

  it('keeps only the /48 network of an IPv6 address, however it is written', () => {
    expect(maskedAddress('2001:db8:85a3:1234::5')).toBe('2001:db8:85a3::/48');
    expect(maskedAddress('2001:0db8:0000:0042:0000:8a2e:0370:7334')).toBe('2001:db8:0::/48');
    expect(maskedAddress('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(maskedAddress('::1')).toBe('0:0:0::/48');
    expect(maskedAddress('fe80::1%eth0')).toBe('fe80:0:0::/48');
    expect(maskedAddress('64:ff9b::192.0.2.33')).toBe('64:ff9b:0::/48');
  });

  it('answers "" for anything that is not an address', () => {
    for (const junk of ['', 'unknown', '1.2.3', '999.1.1.1', 'a:b:c:d:e:f:g:h', '1.2.3.4.5'])
      expect(maskedAddress(junk)).toBe('');
  });
});
