/**
 * The shared constants of @hello/contract against the product contract's own words, which
 * docs/web-app.md and docs/api.md repeat. Every other suite takes its expected
 * texts from these same constants, so a typo in one would pass everywhere; here each expected value
 * is written out literally, and a difference fails.
 */
import {
  TOKEN_STORAGE_KEY,
  apiPaths,
  appRoutes,
  defaultLimits,
  demoPdfIds,
  errorCodes,
  formMessages,
  loginForm,
  newsLimits,
  passwordRules,
  registrationForm,
  serverMessages,
  statusResponse,
  texts,
} from '@hello/contract';
import { describe, expect, it } from 'vitest';

describe("the web app's exact texts (docs/web-app.md)", () => {
  it.each([
    ['header', texts.header, 'Hello all!'],
    ['loading', texts.loading, 'Loading ...'],
    ['print button', texts.clickToPrint, 'Click to print'],
    ['print button while loading', texts.wait, 'Wait...'],
    ['news refresh button', texts.refreshThisPage, 'refresh this page'],
    [
      'reset request confirmation',
      texts.resetRequestSent,
      'Your reset password request has been sent. Please check your email.',
    ],
    ['reset token check', texts.readingData, 'Reading data, please wait...'],
    ['invalid reset token', texts.tokenInvalid, 'The token is invalid'],
    ['logout button', texts.logout, 'Logout'],
    ['submit button', texts.submit, 'Submit'],
    ['reset button', texts.reset, 'Reset'],
    ['PDF viewer previous page', texts.prev, 'Prev'],
    ['PDF viewer next page', texts.next, 'Next'],
    ['required field', formMessages.required, 'Required'],
    ['confirmation mismatch', formMessages.mustMatch, 'Must match'],
  ])('%s', (_what, constant, literal) => {
    expect(constant).toBe(literal);
  });

  it('404 page, with an en dash (U+2013), not a hyphen', () => {
    expect(texts.notFound).toBe('404 Error – Sorry, the page you requested does not exist!');
    expect(texts.notFound.codePointAt('404 Error '.length)).toBe(0x2013);
  });

  it('the refresh token is kept in localStorage under "token"', () => {
    expect(TOKEN_STORAGE_KEY).toBe('token');
  });

  it('the form rules answer with those words: Required for an empty field, Must match for a confirmation', () => {
    const empty = loginForm.safeParse({ email: '', password: '' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['email', 'Required'],
      ['password', 'Required'],
    ]);
    const mismatch = registrationForm.safeParse({ email: 'a@example.com', password1: 'one', password2: 'two' });
    expect(mismatch.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['password2', 'Must match'],
    ]);
  });
});

describe("the server's messages and codes (docs/api.md)", () => {
  it.each([
    ['failed login', serverMessages.noActiveAccount, 'No active account found with the given credentials'],
    ['logout', serverMessages.loggedOut, 'Successfully logged out.'],
    ['missing required field', serverMessages.fieldRequired, 'This field is required.'],
    [
      'missing Authorization header',
      serverMessages.credentialsNotProvided,
      'Authentication credentials were not provided.',
    ],
    ['unknown PDF', serverMessages.notFound, 'Not found.'],
    ['bad or ended token (code)', errorCodes.tokenNotValid, 'token_not_valid'],
    // "Beyond the specification", introduction: the 403 body of every new call.
    ['403 of sections 6-9', serverMessages.permissionDenied, 'You do not have permission to perform this action.'],
    // A registration with an e-mail that already has an account.
    ['e-mail taken', serverMessages.emailTaken, 'A user is already registered with this e-mail address.'],
    // A refused second step of a two-step sign-in.
    ['refused two-step code (code)', errorCodes.mfaInvalid, 'mfa_invalid'],
  ])('%s', (_what, constant, literal) => {
    expect(constant).toBe(literal);
  });

  it('password too short, for the contract minimum of 8 characters', () => {
    expect(passwordRules.minLength).toBe(8);
    expect(serverMessages.passwordTooShort(passwordRules.minLength)).toBe(
      'This password is too short. It must contain at least 8 characters.',
    );
  });

  it('status answers of the reset and e-mail calls are "OK" or "notfound"', () => {
    expect(statusResponse.properties.status).toMatchObject({ type: 'string', enum: ['OK', 'notfound'] });
  });
});

describe('the paths, exactly as written (trailing slashes included; docs/api.md)', () => {
  it.each([
    [apiPaths.token, '/api/v1/token/'],
    [apiPaths.tokenRefresh, '/api/v1/token/refresh/'],
    [apiPaths.tokenMfa, '/api/v1/token/mfa/'],
    [apiPaths.localNews, '/api/v1/localnews/'],
    [apiPaths.localNewsNew, '/api/v1/localnews/new'],
    [apiPaths.localNewsItem, '/api/v1/localnews/:id/'],
    [apiPaths.registration, '/api/v1/rest-auth/registration/'],
    [apiPaths.logout, '/api/v1/rest-auth/logout/'],
    [apiPaths.jwtLogout, '/api/v1/rest-auth/api-jwt-logout/'],
    [apiPaths.apiTokenAuth, '/api/v1/rest-auth/api-token-auth/'],
    [apiPaths.changePassword, '/api/v1/users/changepassword/'],
    [apiPaths.passwordReset, '/api/password_reset/'],
    [apiPaths.passwordResetValidateToken, '/api/password_reset/validate_token/'],
    [apiPaths.passwordResetConfirm, '/api/password_reset/confirm/'],
    [apiPaths.userProfile, '/api/v1/user/profile/'],
    [apiPaths.userSessions, '/api/v1/user/sessions/'],
    [apiPaths.userSession, '/api/v1/user/sessions/:id/'],
    [apiPaths.revokeOtherSessions, '/api/v1/user/sessions/revoke-others/'],
    [apiPaths.changeEmail, '/api/v1/user/email/'],
    [apiPaths.confirmEmail, '/api/v1/user/email/confirm/'],
    [apiPaths.exportAccount, '/api/v1/user/export/'],
    [apiPaths.deleteAccount, '/api/v1/user/delete/'],
    [apiPaths.totpSetup, '/api/v1/user/totp/setup/'],
    [apiPaths.totpConfirm, '/api/v1/user/totp/confirm/'],
    [apiPaths.totpDisable, '/api/v1/user/totp/disable/'],
    [apiPaths.openapi, '/api/openapi.json'],
    [apiPaths.downloadPdf, '/download_pdf_by_id/:id'],
  ])('%s', (constant, literal) => {
    expect(constant).toBe(literal);
  });

  it('browser routes of the specification table and of sections 6-8', () => {
    expect(Object.values(appRoutes).sort()).toEqual(
      [
        '/',
        '/about',
        '/pdfviewer',
        '/downloadpdf',
        '/printpdf',
        '/printcurrentpage',
        '/localnews',
        '/login',
        '/logout_token',
        '/logout_jwt',
        '/addlocalnews',
        '/changepassword',
        '/resetpasswordrequest',
        '/resetpasswordrequestconfirmed',
        '/resetnewpassword',
        '/register',
        '/userprofile',
        '/news',
        '/news/:id',
        '/news/:id/edit',
        '/sessions',
        '/changeemail',
        '/confirmemail',
        '/deleteaccount',
        '/twofactor',
      ].sort(),
    );
  });

  it('demo PDFs: id 1 downloaded, id 3 viewed and printed', () => {
    expect(demoPdfIds).toEqual({ download: 1, viewer: 3, print: 3 });
  });
});

describe('the default limits (README, "Configuration")', () => {
  it('uploads: 10 MiB a file, 10 files an item; any other body 1 MiB', () => {
    expect(defaultLimits).toEqual({ maxUploadFileBytes: 10_485_760, maxUploadFiles: 10, maxBodyBytes: 1_048_576 });
  });

  it('news list: ?limit= defaults to 50 and may be at most 100', () => {
    expect(newsLimits.defaultPageSize).toBe(50);
    expect(newsLimits.maxPageSize).toBe(100);
  });
});
