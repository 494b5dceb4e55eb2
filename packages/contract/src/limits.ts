/** Defaults of the abuse limits (CONTRACT.md, section 5); the server's configuration may change them. */
export const defaultLimits = {
  maxUploadFileBytes: 10 * 1024 * 1024,
  maxUploadFiles: 10,
  maxBodyBytes: 1024 * 1024,
} as const;

/** Password rules (CONTRACT.md, section 2). The browser does not check them; the server does. */
export const passwordRules = { minLength: 8 } as const;

/** News items (CONTRACT.md, sections 2 and 6). */
export const newsLimits = {
  /** Longest title, in characters. */
  maxTitleLength: 255,
  /** Items per page of the list: `?limit=` defaults to this… */
  defaultPageSize: 50,
  /** …and may be at most this. */
  maxPageSize: 100,
} as const;
