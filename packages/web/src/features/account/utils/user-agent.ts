/** A device as people name it: `Chrome on Linux`, `Safari on iPhone`, or the raw string's first word. */
export interface DeviceName {
  browser: string | null;
  os: string | null;
}

// Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", and so on.
const browsers: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const firstMatch = (ua: string, table: [RegExp, string][]) => table.find(([pattern]) => pattern.test(ua))?.[1] ?? null;

export function parseUserAgent(ua: string): DeviceName {
  return { browser: firstMatch(ua, browsers), os: firstMatch(ua, systems) };
}

/**
 * A readable name for a session's device from its User-Agent header (the raw string stays on the
 * page for anyone who wants it). Good enough to tell one's own devices apart, no more: a library
 * that knows every browser would cost this page's chunk more than the page itself.
 */
export function describeUserAgent(ua: string): string {
  const text = ua.trim();
  if (!text) return 'Unknown device';
  const { browser, os } = parseUserAgent(text);
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  // Not a browser we know (curl/8.5.0, a script): its product name says the most.
  const product = /^[^\s/;()]+/.exec(text)?.[0];
  const name = product && product !== 'Mozilla' ? product : 'Unknown browser';
  return os ? `${name} on ${os}` : name;
}
