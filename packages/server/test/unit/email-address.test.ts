import { describe, expect, it } from 'vitest';
import { withAsciiDomain } from '../../src/email-address.js';

describe('withAsciiDomain', () => {
  it('writes an internationalized domain in ASCII, its letters lower-case, the local part as it is', () => {
    expect(withAsciiDomain('ann@bücher.de')).toBe('ann@xn--bcher-kva.de');
    expect(withAsciiDomain('Ann@BÜCHER.DE')).toBe('Ann@xn--bcher-kva.de');
    expect(withAsciiDomain('ann@例え.テスト')).toBe('ann@xn--r8jz45g.xn--zckzah');
    expect(withAsciiDomain('a@b@bücher.de')).toBe('a@b@xn--bcher-kva.de');
  });

  it('leaves an ASCII address exactly as it is', () => {
    for (const address of ['Ann@Example.COM', 'ann@xn--bcher-kva.de', 'not-an-address', 'ann@exa\tmple.com', ''])
      expect(withAsciiDomain(address)).toBe(address);
  });

  it('leaves a domain that is no domain for the validation to refuse', () => {
    for (const address of ['ann@bü\tcher.de', 'ann@bü cher.de', 'ann@bü%41cher.de', 'ann@bücher.de/x', 'ann@bü:80'])
      expect(withAsciiDomain(address)).toBe(address);
  });
});
