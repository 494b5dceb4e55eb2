import { appRoutes } from '@hello/contract';

/** docs/web-app.md, "Constants": a route chunk that has not arrived after this long is treated as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** docs/web-app.md, "Constants": the printed PDF's object URL is revoked this long after print() was called. */
export const PRINT_URL_REVOKE_MS = 1_000;

/** docs/web-app.md, "Constants": the viewer starts at page 1, drawn at scale 1. */
export const PDF_SCALE = 1;

/** Where a login goes when no previous location was passed along (docs/web-app.md, "The session in the browser"). */
export const DEFAULT_AFTER_LOGIN = appRoutes.localNews;

/**
 * Pages whose purpose is to get (or end) a session. When a stale refresh token fails to exchange
 * while one of them is open, we clear auth but stay: sending someone who is resetting a forgotten
 * password, registering or logging out to /login would defeat the page.
 */
export const PAGES_WITHOUT_AUTH_REDIRECT: readonly string[] = [
  appRoutes.login,
  appRoutes.register,
  appRoutes.resetPasswordRequest,
  appRoutes.resetPasswordRequestConfirmed,
  appRoutes.resetNewPassword,
  // The e-mail change's link needs no session: an expired one must not take the user away from it.
  appRoutes.confirmEmail,
  appRoutes.logoutToken,
  appRoutes.logoutJwt,
];
