/** Request and response bodies of every call (CONTRACT.md, section 2). */

export interface LoginRequest { email: string; password: string }
export interface TokenPair { access: string; refresh: string }
export interface RefreshRequest { refresh: string }
export interface AccessToken { access: string }

export interface RegistrationRequest { email: string; password1: string; password2: string }
/** `key` is a refresh token for the new account's first session. */
export interface RegistrationResponse { key: string }

export interface JwtLogoutRequest { refresh: string }
export interface LogoutResponse { detail: string }

/** Legacy call; `username` is the e-mail. Answers a refresh token. */
export interface ApiTokenAuthRequest { username: string; password: string }
export interface ApiTokenAuthResponse { token: string }

export interface ChangePasswordRequest { old_password: string; new_password: string; confirm: string }
export interface ChangePasswordResponse { refresh: string }

export interface ResetRequest { email: string; reset_new_password_path: string }
export interface ValidateResetTokenRequest { token: string }
export interface ResetConfirmRequest { password: string; confirm: string; token: string }
export interface StatusResponse { status: 'OK' | 'notfound' }

export interface UserProfileDetails { telephone: string; mobile: string; website: string }
export interface Profile {
  email: string;
  first_name: string;
  last_name: string;
  user_profile: UserProfileDetails;
}
/** The profile form as sent: multipart with dotted names, or JSON with a nested object. */
export interface ProfileUpdateRequest {
  first_name: string;
  last_name: string;
  user_profile?: Partial<UserProfileDetails>;
}
export interface ProfileUpdateResponse { user_info: Profile; refresh: string }

export interface NewsFile {
  id: number;
  name: string;
  size: number;
  content_type: string;
  /** Signed, expiring URL: a plain link downloads the attachment. */
  url: string;
}
export interface NewsItem {
  id: number;
  title: string;
  content: string;
  /** ISO 8601 */
  created_at: string;
  /** The author's e-mail. */
  author: string;
  files: NewsFile[];
}

/**
 * PATCH /api/v1/localnews/{id}/ (its author): every field optional. As JSON, or as multipart with
 * `files` (added, repeated) and `remove_files` (ids of the item's files, repeated). The item keeps
 * at least one file.
 */
export interface NewsUpdateRequest {
  title?: string;
  content?: string;
  remove_files?: number[];
}

/** 400 answers: messages per field; errors of no one field go under `non_field_errors`. */
export type FieldErrors = Record<string, string[]>;
/** Every other error answer. */
export interface ErrorBody { detail: string; code?: string }
