import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';

/** `mfa`: the five-minute token between a login's password and its code (auth/two-step.ts). */
export type TokenType = 'access' | 'refresh' | 'mfa';

export interface TokenClaims {
  userId: number;
  sessionId: string;
  type: TokenType;
  /** An mfa token's only: 128 bits of an HMAC of the password hash and sealed secret it was given for (two-step.ts). */
  binding?: string;
}

const ALGORITHM = 'HS256';

/**
 * Signs and checks our JWTs. Only HS256 with our key is accepted: `alg: none` and every other
 * algorithm fail verification, as does a token of the other type.
 *
 * fast-jwt rather than WebCrypto (jose): an HMAC is a few microseconds, done synchronously here, where
 * WebCrypto hands each one to the thread pool that password hashing keeps busy. Verified tokens are
 * remembered until their `exp` (VerifiedTokens), so a token sent again costs one lookup; whether its
 * session is still live is asked of the database on every request all the same (auth/sessions.ts).
 */
export function createJwt(secretKey: string) {
  const sign = createSigner({ key: secretKey, algorithm: ALGORITHM });
  const verify = createVerifier({
    key: secretKey,
    algorithms: [ALGORITHM],
    requiredClaims: ['exp', 'sub', 'sid', 'token_type'],
  });
  const verified = new VerifiedTokens(1_000);
  return {
    sign(claims: TokenClaims, expiresAt: Date): string {
      return sign({
        token_type: claims.type,
        sid: claims.sessionId,
        sub: String(claims.userId),
        jti: randomUUID(),
        exp: Math.floor(expiresAt.getTime() / 1000),
        ...(claims.binding !== undefined && { bnd: claims.binding }),
      });
    },
    /** The claims, or `null` for a token that is malformed, forged, expired or of the other type. */
    verify(token: string, type: TokenType): TokenClaims | null {
      let payload = verified.get(token);
      if (!payload) {
        try {
          payload = verify(token) as Record<string, unknown>;
        } catch {
          return null;
        }
        verified.add(token, payload);
      }
      const userId = Number(payload.sub);
      if (
        payload.token_type !== type ||
        typeof payload.sid !== 'string' ||
        typeof payload.sub !== 'string' ||
        !Number.isSafeInteger(userId)
      ) {
        return null;
      }
      return {
        userId,
        sessionId: payload.sid,
        type,
        ...(typeof payload.bnd === 'string' && { binding: payload.bnd }),
      };
    },
  };
}

export type Jwt = ReturnType<typeof createJwt>;

/**
 * Payloads of tokens whose signature and claims were checked, keyed by the whole token (so two
 * tokens never share an entry) and kept until their `exp`; the oldest go first when full. fast-jwt's
 * own cache does the same keyed by a SHA-256 of the token, which costs more than the rest of the check.
 */
class VerifiedTokens {
  private readonly entries = new Map<string, { payload: Record<string, unknown>; expiresMs: number }>();
  constructor(private readonly capacity: number) {}

  get(token: string): Record<string, unknown> | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (Date.now() < entry.expiresMs) return entry.payload;
    this.entries.delete(token);
    return undefined;
  }

  add(token: string, payload: Record<string, unknown>): void {
    if (typeof payload.exp !== 'number') return; // required by the verifier; never cached without it
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { payload, expiresMs: payload.exp * 1000 });
  }
}
