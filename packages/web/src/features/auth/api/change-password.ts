import { apiPaths, type ChangePasswordRequest, type ChangePasswordResponse } from '@hello/contract';
import { apiJson, refreshAccessToken } from '@/lib/api-client';
import { adoptRefreshToken } from '@/lib/auth';

/**
 * PUT /api/v1/users/changepassword/ with a Bearer token fresh from an exchange (docs/api.md, "Password change":
 * "bearer after a fresh refresh"). The answer's refresh token replaces the stored one, because the
 * change ends every other session of the user.
 */
export async function changePassword(request: ChangePasswordRequest): Promise<void> {
  await refreshAccessToken();
  const { refresh } = await apiJson<ChangePasswordResponse>(apiPaths.changePassword, {
    method: 'PUT',
    auth: 'bearer',
    json: request,
  });
  if (refresh) adoptRefreshToken(refresh);
}
