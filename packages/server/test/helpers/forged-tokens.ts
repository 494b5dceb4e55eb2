import { createHmac, generateKeyPairSync, randomUUID, sign } from 'node:crypto';

/**
 * Hand-made JWTs for attacks: every byte of header, payload and signature under the test's control,
 * so none of them is shaped by a library's good manners.
 */
const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

export type Claims = Record<string, unknown>;

export function decode(token: string): { header: Claims; payload: Claims; signature: string } {
  const [h = '', p = '', signature = ''] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()),
    signature,
  };
}

export function hmacJwt(alg: 'HS256' | 'HS384' | 'HS512', key: string, payload: Claims, header: Claims = {}): string {
  const input = `${b64({ alg, typ: 'JWT', ...header })}.${b64(payload)}`;
  return `${input}.${createHmac(`sha${alg.slice(2)}`, key)
    .update(input)
    .digest('base64url')}`;
}

/** RS256 with a key of our own, its public half embedded in the header (the `jwk` injection attack). */
export function rs256Jwt(payload: Claims): string {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = `${b64({ alg: 'RS256', typ: 'JWT', jwk: publicKey.export({ format: 'jwk' }) })}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

/** The same token with its payload changed and the original signature kept. */
export function tamper(token: string, change: Claims): string {
  const [h, , s] = token.split('.');
  return `${h}.${b64({ ...decode(token).payload, ...change })}.${s}`;
}

/**
 * Every forgery of a token of `type`, given a genuine one (`genuine`) and the app's SECRET_KEY, and
 * the genuine token of the other type. Each must be refused as `token_not_valid`.
 */
export function forgeries(
  genuine: string,
  otherType: string,
  secretKey: string,
  otherUserId: number,
): [string, string][] {
  const { payload } = decode(genuine);
  const now = Math.floor(Date.now() / 1000);
  const [h, p, s] = genuine.split('.');
  return [
    ['alg none, no signature', `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`],
    ['alg none, signature kept', `${b64({ alg: 'none', typ: 'JWT' })}.${p}.${s}`],
    ['alg NONE (case)', `${b64({ alg: 'NONE', typ: 'JWT' })}.${p}.`],
    ['HS256 header, empty signature', `${h}.${p}.`],
    ['HS512 with the real key', hmacJwt('HS512', secretKey, payload)],
    ['HS384 with the real key', hmacJwt('HS384', secretKey, payload)],
    ['HS256 with another key', hmacJwt('HS256', 'not-the-secret-key-not-the-secret-key', payload)],
    ['HS256 with an empty key', hmacJwt('HS256', '', payload)],
    ['RS256 with an embedded jwk', rs256Jwt(payload)],
    ['kid path traversal, empty key', hmacJwt('HS256', '', payload, { kid: '../../../../dev/null' })],
    ['tampered sub, signature kept', tamper(genuine, { sub: String(otherUserId) })],
    ['tampered sid, signature kept', tamper(genuine, { sid: randomUUID() })],
    ['tampered exp, signature kept', tamper(genuine, { exp: now + 10 * 365 * 86400 })],
    ['tampered token_type, signature kept', tamper(genuine, { token_type: decode(otherType).payload.token_type })],
    ['the other token type', otherType],
    [
      'expired (real key, exp in the past)',
      hmacJwt('HS256', secretKey, { ...payload, iat: now - 3600, exp: now - 60 }),
    ],
    ['not yet valid (nbf in the future)', hmacJwt('HS256', secretKey, { ...payload, nbf: now + 3600 })],
    ['no exp claim (real key)', hmacJwt('HS256', secretKey, { ...payload, exp: undefined })],
    ['sub of another user (real key)', hmacJwt('HS256', secretKey, { ...payload, sub: String(otherUserId) })],
    ['sub not a number (real key)', hmacJwt('HS256', secretKey, { ...payload, sub: '1 OR 1=1' })],
    ['sid not a string (real key)', hmacJwt('HS256', secretKey, { ...payload, sid: { $ne: null } })],
    ['no token_type (real key)', hmacJwt('HS256', secretKey, { ...payload, token_type: undefined })],
    ['two tokens glued', `${genuine}.${genuine}`],
    ['signature truncated', genuine.slice(0, -2)],
    ['payload not JSON', `${h}.${b64('not json')}.${s}`],
    ['empty string', ''],
    ['garbage', 'null'],
  ];
}
