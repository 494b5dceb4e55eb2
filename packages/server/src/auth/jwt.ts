import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

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
 */
export function createJwt(secretKey: string) {
  const key = new TextEncoder().encode(secretKey);
  return {
    sign(claims: TokenClaims, expiresAt: Date): Promise<string> {
      return new SignJWT({ token_type: claims.type, sid: claims.sessionId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
    },
    /** The claims, or `null` for a token that is malformed, forged, expired or of the other type. */
    async verify(token: string, type: TokenType): Promise<TokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          requiredClaims: ['exp', 'sub', 'sid', 'token_type'],
        });
        const userId = Number(payload.sub);
        if (payload.token_type !== type || typeof payload.sid !== 'string' || !Number.isSafeInteger(userId)) return null;
        return { userId, sessionId: payload.sid, type };
      } catch {
        return null;
      }
    },
  };
}

export type Jwt = ReturnType<typeof createJwt>;
