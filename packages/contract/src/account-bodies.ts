import * as Type from './typebox.js';
import { accountLimits as limits } from './limits.js';

/**
 * The account calls' bodies and answers as JSON Schemas (docs/api.md, "Calls" and "Shapes"): the server
 * validates requests and serializes answers with them, and types.ts derives their TypeScript types. The
 * server words a schema's failures as Django REST Framework did: a missing required field is "This
 * field is required.", `minLength: 1` "This field may not be blank.", `maxLength` "Ensure this field
 * has no more than N characters.", `format: 'email'` "Enter a valid email address.".
 */

/** A string that must be sent and may not be blank. */
const requiredString = (maxLength: number) => Type.String({ minLength: 1, maxLength });
/** An address that must look like one (a blank one does not). */
const emailAddress = Type.String({ format: 'email', maxLength: limits.email });
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
