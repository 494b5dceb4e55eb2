/** Defaults of the abuse limits (docs/api.md, "Limits"); the server's configuration may change them. */
export const defaultLimits = {
  maxUploadFileBytes: 10 * 1024 * 1024,
  maxUploadFiles: 10,
  maxBodyBytes: 1024 * 1024,
} as const;

/** Password rules (docs/api.md, "Registration"). The browser does not check them; the server does. */
export const passwordRules = { minLength: 8 } as const;

/** News items (docs/api.md, "Local news" and "Limits"). */
export const newsLimits = {
  /** Longest title, in characters. */
  maxTitleLength: 255,
  /** Items per page of the list: `?limit=` defaults to this… */
  defaultPageSize: 50,
  /** …and may be at most this. */
  maxPageSize: 100,
  /** Most ids an edit's `remove_files` may name (more could never all be one item's files). */
  maxRemovedFiles: 1000,
} as const;

/**
 * Longest values of the account calls' fields, in characters (docs/api.md, "Limits"); a longer one is
 * a field error "Ensure this field has no more than N characters.".
 */
export const accountLimits = {
  /** An e-mail: the login's, the registration's, the reset request's, the legacy login's `username`. */
  email: 254,
  password: 1024,
  /** A refresh token or a password-reset token. */
  token: 2048,
  /** `first_name` and `last_name` of the profile. */
  name: 150,
  /** `telephone` and `mobile` of the profile. */
  phone: 50,
  /** `website` of the profile. */
  website: 200,
  /** `reset_new_password_path` of a reset request. */
  path: 500,
} as const;
