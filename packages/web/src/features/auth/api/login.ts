import { apiPaths, type LoginRequest, type MfaRequired, type TokenPair } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { setAccessToken, setUserEmail, storeRefreshToken } from '@/lib/auth';

/** What the password step led to: a session, or the code step of an account with two-step sign-in. */
export type LoginResult = { status: 'signed-in' } | { status: 'code-needed'; mfaToken: string };

const asksForCode = (answer: TokenPair | MfaRequired | undefined): answer is MfaRequired =>
  (answer as Partial<MfaRequired> | undefined)?.mfa_required === true;

/**
 * POST /api/v1/token/: a 200 with a refresh value starts the session (docs/web-app.md, "What happens
 * after each form"); for an account with two-step sign-in the 200 carries an `mfa_token` instead,
 * for the code step (api/login-code.ts).
 */
export async function login(credentials: LoginRequest): Promise<LoginResult> {
  const answer = await apiJson<TokenPair | MfaRequired>(apiPaths.token, { method: 'POST', json: credentials });
  if (asksForCode(answer)) return { status: 'code-needed', mfaToken: answer.mfa_token };
  startSession(answer, credentials.email);
  return { status: 'signed-in' };
}

/** Keeps the tokens of a successful login, by password alone or with its code step. */
export function startSession(tokens: TokenPair | undefined, email: string): void {
  if (!tokens?.refresh) throw new Error('The login answer carried no refresh token');
  storeRefreshToken(tokens.refresh);
  setAccessToken(tokens.access ?? null);
  setUserEmail(email);
}
