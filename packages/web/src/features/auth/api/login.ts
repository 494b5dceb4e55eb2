import { apiPaths, type LoginRequest, type TokenPair } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { setAccessToken, setUserEmail, storeRefreshToken } from '@/lib/auth';

/** POST /api/v1/token/: a 200 with a refresh value starts the session (docs/web-app.md, "What happens after each form"). */
export async function login(credentials: LoginRequest): Promise<void> {
  const tokens = await apiJson<TokenPair>(apiPaths.token, { method: 'POST', json: credentials });
  if (!tokens?.refresh) throw new Error('The login answer carried no refresh token');
  storeRefreshToken(tokens.refresh);
  setAccessToken(tokens.access ?? null);
  setUserEmail(credentials.email);
}
