import { apiPaths, type MfaRequest, type TokenPair } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { startSession } from './login';

/**
 * POST /api/v1/token/mfa/ {mfa_token, code}: the second step of a login with two-step sign-in. The
 * tokens it answers start the session exactly as a login by password alone does. A wrong code, or an
 * `mfa_token` older than 5 minutes, is a 401 `mfa_invalid` (an ApiError).
 */
export async function submitLoginCode(request: MfaRequest, email: string): Promise<void> {
  const tokens = await apiJson<TokenPair>(apiPaths.tokenMfa, { method: 'POST', json: request });
  startSession(tokens, email);
}
