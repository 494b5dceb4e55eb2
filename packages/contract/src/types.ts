import type { Static } from '@sinclair/typebox';
import type * as account from './account-bodies.js';
import type * as errors from './error-bodies.js';
import type * as news from './news-bodies.js';

/**
 * Request and response bodies of every call (docs/api.md, "Calls"), as TypeScript types. Each is
 * declared once, as the JSON Schema the server validates and serializes with (account-bodies.ts,
 * news-bodies.ts, error-bodies.ts), and derived here from it.
 */

export type LoginRequest = Static<typeof account.loginRequest>;
export type TokenPair = Static<typeof account.tokenPair>;
export type RefreshRequest = Static<typeof account.refreshRequest>;
export type AccessToken = Static<typeof account.accessToken>;

export type RegistrationRequest = Static<typeof account.registrationRequest>;
/** `key` is a refresh token for the new account's first session. */
export type RegistrationResponse = Static<typeof account.registrationResponse>;

export type JwtLogoutRequest = Static<typeof account.jwtLogoutRequest>;
/** An empty object. */
export type JwtLogoutResponse = Static<typeof account.jwtLogoutResponse>;
export type LogoutResponse = Static<typeof account.logoutResponse>;

/** Legacy call; `username` is the e-mail. Answers a refresh token. */
export type ApiTokenAuthRequest = Static<typeof account.apiTokenAuthRequest>;
export type ApiTokenAuthResponse = Static<typeof account.apiTokenAuthResponse>;

export type ChangePasswordRequest = Static<typeof account.changePasswordRequest>;
export type ChangePasswordResponse = Static<typeof account.changePasswordResponse>;

export type ResetRequest = Static<typeof account.resetRequest>;
export type ValidateResetTokenRequest = Static<typeof account.validateResetTokenRequest>;
export type ResetConfirmRequest = Static<typeof account.resetConfirmRequest>;
export type StatusResponse = Static<typeof account.statusResponse>;

export type UserProfileDetails = Static<typeof account.userProfileDetails>;
export type Profile = Static<typeof account.profile>;
/** The profile form as sent: multipart with dotted names, or JSON with a nested object. */
export type ProfileUpdateRequest = Static<typeof account.profileUpdateRequest>;
export type ProfileUpdateResponse = Static<typeof account.profileUpdateResponse>;

/** One of the caller's live sessions (GET /api/v1/user/sessions/). */
export type SessionInfo = Static<typeof account.sessionInfo>;
export type RevokeOthersResponse = Static<typeof account.revokeOthersResponse>;
export type ChangeEmailRequest = Static<typeof account.changeEmailRequest>;
export type ConfirmEmailRequest = Static<typeof account.confirmEmailRequest>;
export type DeleteAccountRequest = Static<typeof account.deleteAccountRequest>;
export type AccountExport = Static<typeof account.accountExport>;

export type TotpStatus = Static<typeof account.totpStatus>;
export type TotpSetupRequest = Static<typeof account.totpSetupRequest>;
export type TotpSetupResponse = Static<typeof account.totpSetupResponse>;
export type TotpConfirmRequest = Static<typeof account.totpConfirmRequest>;
export type TotpConfirmResponse = Static<typeof account.totpConfirmResponse>;
export type TotpDisableRequest = Static<typeof account.totpDisableRequest>;
/** The login's answer for an account with two-step sign-in, instead of the token pair. */
export type MfaRequired = Static<typeof account.mfaRequired>;
export type MfaRequest = Static<typeof account.mfaRequest>;

export type NewsFile = Static<typeof news.newsFile>;
export type NewsItem = Static<typeof news.newsItem>;

/**
 * PATCH /api/v1/localnews/{id}/ (its author): every field optional. As JSON, or as multipart with
 * `files` (added, repeated) and `remove_files` (ids of the item's files, repeated). The item keeps
 * at least one file.
 */
export type NewsUpdateRequest = Static<typeof news.newsUpdateRequest>;

/** 400 answers: messages per field; errors of no one field go under `non_field_errors`. */
export type FieldErrors = Static<typeof errors.fieldErrors>;
/** Every other error answer. */
export type ErrorBody = Static<typeof errors.errorBody>;
