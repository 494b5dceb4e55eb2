import { apiPaths, type RegistrationRequest, type RegistrationResponse } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { setAccessToken, setUserEmail, storeRefreshToken } from '@/lib/auth';

/**
 * POST /api/v1/rest-auth/registration/: 201 {key}. The key is a refresh token for the new
 * account's first session (docs/api.md, "Authentication"), so it is stored exactly like a login's refresh token.
 */
export async function register(request: RegistrationRequest): Promise<void> {
  const { key } = await apiJson<RegistrationResponse>(apiPaths.registration, {
    method: 'POST',
    json: request,
  });
  if (!key) throw new Error('The registration answer carried no key');
  storeRefreshToken(key);
  setAccessToken(null);
  setUserEmail(request.email);
}
