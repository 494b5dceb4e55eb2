import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  userId: number;
  sessionId: string;
  type: TokenType;
}

const ALGORITHM = 'HS256';

/**
 * Signs and checks our JWTs. Only HS256 with our key is accepted: `alg: none` and every other
 * algorithm fail verification, as does a token of the other type.
 *
 * fast-jwt rather than WebCrypto (jose): an HMAC is a few microseconds, done synchronously here, where
 * WebCrypto hands each one to the thread pool that password hashing keeps busy. Verified tokens are
 * remembered (keyed by their hash, until their `exp`), so a token sent again costs one lookup; whether
 * its session is still live is asked of the database on every request all the same (auth/sessions.ts).
 */
export function createJwt(secretKey: string) {
  const sign = createSigner({ key: secretKey, algorithm: ALGORITHM });
  const verify = createVerifier({
    key: secretKey,
    algorithms: [ALGORITHM],
    requiredClaims: ['exp', 'sub', 'sid', 'token_type'],
    // Keyed by a hash of the token (fast-jwt's default; a custom key draws its collision warning).
    cache: 1_000,
  });
  return {
    sign(claims: TokenClaims, expiresAt: Date): string {
      return sign({
        token_type: claims.type,
        sid: claims.sessionId,
        sub: String(claims.userId),
        jti: randomUUID(),
        exp: Math.floor(expiresAt.getTime() / 1000),
      });
    },
    /** The claims, or `null` for a token that is malformed, forged, expired or of the other type. */
    verify(token: string, type: TokenType): TokenClaims | null {
      let payload: Record<string, unknown>;
      try {
        payload = verify(token) as Record<string, unknown>;
      } catch {
        return null;
      }
      const userId = Number(payload.sub);
      if (payload.token_type !== type || typeof payload.sid !== 'string' || typeof payload.sub !== 'string' || !Number.isSafeInteger(userId)) {
        return null;
      }
      return { userId, sessionId: payload.sid, type };
    },
  };
}

export type Jwt = ReturnType<typeof createJwt>;
