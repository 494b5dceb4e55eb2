/** Defaults of the abuse limits (CONTRACT.md, section 5); the server's configuration may change them. */
export const defaultLimits = {
  maxUploadFileBytes: 10 * 1024 * 1024,
  maxUploadFiles: 10,
  maxBodyBytes: 1024 * 1024,
} as const;

/** Password rules (CONTRACT.md, section 2). The browser does not check them; the server does. */
export const passwordRules = { minLength: 8 } as const;
