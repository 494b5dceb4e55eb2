import { apiPaths, type ProfileForm, type ProfileUpdateResponse, type Profile } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { adoptRefreshToken } from '@/lib/auth';

/**
 * POST /api/v1/user/profile/ as multipart with the dotted names of docs/api.md, "Profile"
 * (`user_profile.telephone`, …). The answer carries the saved profile and a refresh token, which
 * replaces the stored one (docs/web-app.md, "What happens after each form").
 */
export async function updateProfile(values: ProfileForm): Promise<Profile> {
  const form = new FormData();
  form.append('first_name', values.first_name);
  form.append('last_name', values.last_name);
  for (const key of ['telephone', 'mobile', 'website'] as const) {
    form.append(`user_profile.${key}`, values.user_profile[key]);
  }
  const answer = await apiJson<ProfileUpdateResponse>(apiPaths.userProfile, {
    method: 'POST',
    auth: 'bearer',
    form,
  });
  if (answer.refresh) adoptRefreshToken(answer.refresh);
  return answer.user_info;
}
