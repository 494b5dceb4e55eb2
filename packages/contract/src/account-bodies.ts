import * as Type from './typebox.js';
import { accountLimits as limits } from './limits.js';
import { newsItem } from './news-bodies.js';

/**
 * The account calls' bodies and answers as JSON Schemas (docs/api.md, "Calls" and "Shapes"): the server
 * validates requests and serializes answers with them, and types.ts derives their TypeScript types. The
 * server words a schema's failures as Django REST Framework did: a missing required field is "This
 * field is required.", `minLength: 1` "This field may not be blank.", `maxLength` "Ensure this field
 * has no more than N characters.", `format: 'email'` "Enter a valid email address.".
 */

/** A string that must be sent and may not be blank. */
const requiredString = (maxLength: number) => Type.String({ minLength: 1, maxLength });
/** An address that must look like one; a blank one is "This field may not be blank.". */
const emailAddress = Type.String({ format: 'email', minLength: 1, maxLength: limits.email });
const password = requiredString(limits.password);
const token = requiredString(limits.token);

/**
 * One of a few strings, written `{type: 'string', enum}` as OpenAPI 3.0 knows it (a union of TypeBox
 * literals would be `anyOf` of `const`, which it does not).
 */
const stringEnum = <const T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: values });

export const loginRequest = Type.Object({ email: requiredString(limits.email), password });
export const tokenPair = Type.Object({ access: Type.String(), refresh: Type.String() });
export const refreshRequest = Type.Object({ refresh: token });
export const accessToken = Type.Object({ access: Type.String() });

export const registrationRequest = Type.Object({ email: emailAddress, password1: password, password2: password });
export const registrationResponse = Type.Object({ key: Type.String() });

export const jwtLogoutRequest = Type.Object({ refresh: token });
export const jwtLogoutResponse = Type.Object({});
export const logoutResponse = Type.Object({ detail: Type.String() });

export const apiTokenAuthRequest = Type.Object({ username: requiredString(limits.email), password });
export const apiTokenAuthResponse = Type.Object({ token: Type.String() });

export const changePasswordRequest = Type.Object({ old_password: password, new_password: password, confirm: password });
export const changePasswordResponse = Type.Object({ refresh: Type.String() });

export const resetRequest = Type.Object({ email: emailAddress, reset_new_password_path: requiredString(limits.path) });
export const validateResetTokenRequest = Type.Object({ token });
export const resetConfirmRequest = Type.Object({ password, confirm: password, token });
export const statusResponse = Type.Object({ status: stringEnum(['OK', 'notfound']) });

export const userProfileDetails = Type.Object({
  telephone: Type.String(),
  mobile: Type.String(),
  website: Type.String(),
});
export const profile = Type.Object({
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  user_profile: userProfileDetails,
});

const optionalString = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

/** The names may be blank here: the server checks them after trimming, so "" and "   " get the same message. */
export const profileUpdateRequest = Type.Object({
  first_name: Type.String({ maxLength: limits.name }),
  last_name: Type.String({ maxLength: limits.name }),
  user_profile: Type.Optional(
    Type.Object({
      telephone: optionalString(limits.phone),
      mobile: optionalString(limits.phone),
      website: optionalString(limits.website),
    }),
  ),
});
export const profileUpdateResponse = Type.Object({ user_info: profile, refresh: Type.String() });

/**
 * The account center (docs/api.md, "Account center"): the caller's sessions, a change of e-mail
 * confirmed by a link, the export of the account's data and its deletion.
 */
export const sessionInfo = Type.Object({
  id: Type.String({ description: 'Names the session in DELETE /api/v1/user/sessions/{id}/.' }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.String({
    format: 'date-time',
    description: 'Kept to the minute: refreshed at most once a minute.',
  }),
  user_agent: Type.String({ description: 'Of the sign-in or the last token refresh; "" when none was sent.' }),
  ip: Type.String({
    description: 'Of the sign-in or the last refresh, its last part hidden (203.0.113.x; IPv6 to /48).',
  }),
  current: Type.Boolean({ description: 'The session of the token that asked.' }),
});
export const sessionList = Type.Array(sessionInfo);
export const revokeOthersResponse = Type.Object({ revoked: Type.Integer() });

export const changeEmailRequest = Type.Object({ new_email: emailAddress, password });
export const confirmEmailRequest = Type.Object({ token });
export const deleteAccountRequest = Type.Object({ password });

/** GET /api/v1/user/export/: everything the account holds, as one JSON download. */
export const accountExport = Type.Object({
  exported_at: Type.String({ format: 'date-time' }),
  profile,
  sessions: sessionList,
  news_items: Type.Array(newsItem, {
    description: "The caller's items, newest first; file links expire like the list's.",
  }),
});

/**
 * Two-step sign-in (docs/api.md, "Two-step sign-in"): a TOTP secret set up with the password and
 * confirmed by a first code, ten single-use recovery codes, and the second step of a login.
 */
export const totpStatus = Type.Object({
  enabled: Type.Boolean(),
  recovery_codes_left: Type.Integer({ description: 'Unused recovery codes; 0 when two-step sign-in is off.' }),
});
export const totpSetupRequest = Type.Object({ password });
export const totpSetupResponse = Type.Object({
  secret: Type.String({ description: 'Base32, for entering by hand.' }),
  otpauth_url: Type.String({ description: 'The otpauth:// URI an authenticator app reads from a QR code.' }),
});
const code = requiredString(64);
export const totpConfirmRequest = Type.Object({ code });
export const totpConfirmResponse = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'Ten single-use codes, shown this once.' }),
});
export const totpDisableRequest = Type.Object({ password, code });
export const mfaRequired = Type.Object({
  mfa_required: Type.Unsafe<true>({ type: 'boolean', enum: [true] }),
  mfa_token: Type.String({ description: 'Lives 5 minutes; send it with a code to POST /api/v1/token/mfa/.' }),
});
export const mfaRequest = Type.Object({ mfa_token: token, code });
