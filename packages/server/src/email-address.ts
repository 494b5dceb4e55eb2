import { domainToASCII } from 'node:url';

/** A domain of letters, digits, hyphens and dots, some of them beyond ASCII. */
const UNICODE_DOMAIN = /^[a-z0-9.\-\u{80}-\u{10FFFF}]+$/iu;
/** What a domain is once in ASCII (IDNA): letters, digits, hyphens, dots. */
const ASCII_DOMAIN = /^[a-z0-9.-]+$/;

/**
 * An address with an internationalized domain (`ann@bücher.de`) in its ASCII form
 * (`ann@xn--bcher-kva.de`), the form Chromium's e-mail field sends (Firefox sends what was typed):
 * one mailbox has one spelling in the store and in the unique key, and mail goes where DNS knows it.
 * Django's EmailValidator accepts such a domain too. Anything else stays as it is, for the e-mail
 * validation to judge: an ASCII address, or a domain with anything but letters, digits, hyphens and
 * dots (the URL parser behind domainToASCII would drop a tab or read `%41` as `A`).
 */
export function withAsciiDomain(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  if (at < 0 || !/\P{ASCII}/u.test(domain) || !UNICODE_DOMAIN.test(domain)) return address;
  const ascii = domainToASCII(domain);
  return ASCII_DOMAIN.test(ascii) ? `${address.slice(0, at)}@${ascii}` : address;
}
