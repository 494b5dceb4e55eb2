/**
 * A call the server answered with a non-2xx status; `body` is its parsed JSON (or text, or null),
 * `retryAfter` its Retry-After in seconds when it sent one (429, 503).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly retryAfter?: number,
  ) {
    super(`Request failed with status ${status}`);
    this.name = 'ApiError';
  }
}

/**
 * The session could not be restored (no stored refresh token, or the server refused it). Auth has been
 * cleared and the user sent to /login already, so callers need not show anything for it. When the
 * session ended in another tab while its token was exchanged here, this tab follows that logout as
 * it follows any other (the header and menu show it), without going to /login.
 */
export class AuthLostError extends Error {
  constructor() {
    super('The session has ended; please log in again.');
    this.name = 'AuthLostError';
  }
}
