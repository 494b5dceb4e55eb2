/** Every path the server answers and the web app calls, exactly as the contract writes them. */
export const apiPaths = {
  token: '/api/v1/token/',
  tokenRefresh: '/api/v1/token/refresh/',
  /** The second step of a login with two-step sign-in: the `mfa_token` and a code. */
  tokenMfa: '/api/v1/token/mfa/',
  localNews: '/api/v1/localnews/',
  localNewsNew: '/api/v1/localnews/new',
  /** One item: GET, PATCH (its author), DELETE (its author). Use `newsItemPath(id)` to build a URL. */
  localNewsItem: '/api/v1/localnews/:id/',
  /** A news attachment, downloaded by its signed, expiring `url` (our addition; see news-bodies.ts). */
  localNewsFile: '/api/v1/localnews/files/:id',
  registration: '/api/v1/rest-auth/registration/',
  logout: '/api/v1/rest-auth/logout/',
  jwtLogout: '/api/v1/rest-auth/api-jwt-logout/',
  apiTokenAuth: '/api/v1/rest-auth/api-token-auth/',
  changePassword: '/api/v1/users/changepassword/',
  passwordReset: '/api/password_reset/',
  passwordResetValidateToken: '/api/password_reset/validate_token/',
  passwordResetConfirm: '/api/password_reset/confirm/',
  userProfile: '/api/v1/user/profile/',
  /** The account center (docs/api.md, "Account center"). */
  userSessions: '/api/v1/user/sessions/',
  /** One session: DELETE ends it. Use `userSessionPath(id)` to build a URL. */
  userSession: '/api/v1/user/sessions/:id/',
  revokeOtherSessions: '/api/v1/user/sessions/revoke-others/',
  changeEmail: '/api/v1/user/email/',
  confirmEmail: '/api/v1/user/email/confirm/',
  exportAccount: '/api/v1/user/export/',
  deleteAccount: '/api/v1/user/delete/',
  /** Two-step sign-in (docs/api.md, "Two-step sign-in"); GET tells whether it is on. */
  totp: '/api/v1/user/totp/',
  totpSetup: '/api/v1/user/totp/setup/',
  totpConfirm: '/api/v1/user/totp/confirm/',
  totpDisable: '/api/v1/user/totp/disable/',
  openapi: '/api/openapi.json',
  /** Route pattern of the PDF download; use `downloadPdfPath(id)` to build a URL. */
  downloadPdf: '/download_pdf_by_id/:id',
} as const;

export const downloadPdfPath = (id: number | string): string => `/download_pdf_by_id/${id}`;
export const userSessionPath = (id: string): string => `/api/v1/user/sessions/${encodeURIComponent(id)}/`;
export const newsItemPath = (id: number | string): string => `/api/v1/localnews/${id}/`;

/** The single-page app's routes (docs/web-app.md, "Pages"). Any other path is the 404 page. */
export const appRoutes = {
  home: '/',
  about: '/about',
  pdfViewer: '/pdfviewer',
  downloadPdf: '/downloadpdf',
  printPdf: '/printpdf',
  printCurrentPage: '/printcurrentpage',
  localNews: '/localnews',
  login: '/login',
  logoutToken: '/logout_token',
  logoutJwt: '/logout_jwt',
  addLocalNews: '/addlocalnews',
  changePassword: '/changepassword',
  resetPasswordRequest: '/resetpasswordrequest',
  resetPasswordRequestConfirmed: '/resetpasswordrequestconfirmed',
  resetNewPassword: '/resetnewpassword',
  register: '/register',
  userProfile: '/userprofile',
  /** Every news item, newest first, a page at a time (docs/web-app.md, "Pages"). */
  news: '/news',
  /** One item; `newsItemRoute(id)` builds it. */
  newsItem: '/news/:id',
  /** The author's edit form; `editNewsRoute(id)` builds it. */
  editNews: '/news/:id/edit',
  /** The account center: devices signed in, e-mail change and its confirmation link, deletion. */
  sessions: '/sessions',
  changeEmail: '/changeemail',
  /** The e-mail change's link: `/confirmemail?token=…`. */
  confirmEmail: '/confirmemail',
  deleteAccount: '/deleteaccount',
  /** Two-step sign-in: set up with a QR code, the recovery codes once, turn off. */
  twoFactor: '/twofactor',
} as const;

export const newsItemRoute = (id: number | string): string => `/news/${id}`;
export const editNewsRoute = (id: number | string): string => `/news/${id}/edit`;

export type AppRoute = (typeof appRoutes)[keyof typeof appRoutes];

/** An item id in a page path: a positive integer in its one spelling (`7`, not `07`). */
const ID_SEGMENT = '[1-9][0-9]{0,9}';

/** A route pattern (`/news/:id/edit`) as a regular expression matching the paths it serves. */
export const appRoutePattern = (route: string): RegExp => new RegExp(`^${route.replace(/:[a-z]+/g, ID_SEGMENT)}$`);

// Pure: the web app never asks isAppRoute, and its bundle then leaves these out.
const appRoutePatterns = /* @__PURE__ */ Object.values(appRoutes).map(appRoutePattern);

/** True for a path the app has a page for; the server answers every other non-API path with 404. */
export const isAppRoute = (path: string): boolean => appRoutePatterns.some((pattern) => pattern.test(path));

/** Which PDFs the demo pages use (docs/web-app.md, "Pages"). */
export const demoPdfIds = { download: 1, viewer: 3, print: 3 } as const;

/** Key of the refresh token in the browser's localStorage. */
export const TOKEN_STORAGE_KEY = 'token';
