/** Exact texts of the web app (docs/web-app.md, "Pages"). */
export const texts = {
  header: 'Hello all!',
  loading: 'Loading ...',
  clickToPrint: 'Click to print',
  wait: 'Wait...',
  refreshThisPage: 'refresh this page',
  resetRequestSent: 'Your reset password request has been sent. Please check your email.',
  readingData: 'Reading data, please wait...',
  tokenInvalid: 'The token is invalid',
  logout: 'Logout',
  submit: 'Submit',
  reset: 'Reset',
  prev: 'Prev',
  next: 'Next',
  notFound: '404 Error \u2013 Sorry, the page you requested does not exist!',
} as const;

/** The server's words, which the edit form also uses for the same refusal (forms.ts). */
const keepOneFile = 'A news item must keep at least one file.';

/** Messages of the browser's own form rules (docs/web-app.md, "Forms"). */
export const formMessages = {
  required: 'Required',
  mustMatch: 'Must match',
  keepOneFile,
} as const;

/** Messages the server answers with, in the style of Django REST Framework. */
export const serverMessages = {
  fieldRequired: 'This field is required.',
  blank: 'This field may not be blank.',
  notAString: 'Not a valid string.',
  notNull: 'This field may not be null.',
  invalidEmail: 'Enter a valid email address.',
  invalidPath: 'Enter a path that starts with a single "/".',
  noActiveAccount: 'No active account found with the given credentials',
  unableToLogIn: 'Unable to log in with provided credentials.',
  credentialsNotProvided: 'Authentication credentials were not provided.',
  tokenNotValid: 'Given token not valid for any token type',
  loggedOut: 'Successfully logged out.',
  passwordsDontMatch: "The two password fields didn't match.",
  wrongOldPassword: 'Your old password was entered incorrectly. Please enter it again.',
  passwordTooShort: (min: number) => `This password is too short. It must contain at least ${min} characters.`,
  passwordEntirelyNumeric: 'This password is entirely numeric.',
  passwordTooCommon: 'This password is too common.',
  passwordTooSimilar: (what: string) => `The password is too similar to the ${what}.`,
  tooManyFiles: (max: number) => `Ensure there are no more than ${max} files.`,
  fileTooLarge: (maxBytes: number) => `Ensure each file is no larger than ${maxBytes} bytes.`,
  notFound: 'Not found.',
  permissionDenied: 'You do not have permission to perform this action.',
  titleTooLong: (max: number) => `Ensure this field has no more than ${max} characters.`,
  nullCharacters: 'Null characters are not allowed.',
  emptyFile: 'The submitted file is empty.',
  invalidInteger: 'A valid integer is required.',
  notADictionary: 'Invalid data. Expected a dictionary.',
  minValue: (min: number) => `Ensure this value is greater than or equal to ${min}.`,
  maxValue: (max: number) => `Ensure this value is less than or equal to ${max}.`,
  invalidCursor: 'Invalid cursor.',
  noSuchFile: (id: string) => `Invalid pk "${id}" - object does not exist.`,
  tooManyElements: (max: number) => `Ensure this field has no more than ${max} elements.`,
  /** A JSON value where a list belongs, named by its Python type as Django REST Framework names it. */
  notAList: (type: string) => `Expected a list of items but got type "${type}".`,
  keepOneFile,
  methodNotAllowed: (method: string) => `Method "${method}" not allowed.`,
  unsupportedMediaType: (type: string) => `Unsupported media type "${type}" in request.`,
  malformedBody: 'Malformed request body.',
  bodyTooLarge: 'Request body is too large.',
  throttled: (seconds: number) =>
    `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  emailTaken: 'A user is already registered with this e-mail address.',
  sameEmail: 'This is already the e-mail address of your account.',
  wrongPassword: 'Your password was entered incorrectly. Please enter it again.',
  invalidCode: 'The code is not valid.',
  mfaInvalid: 'The code is not valid, or the sign-in took too long: log in again.',
  totpNotSetUp: 'Set up two-step sign-in first.',
  totpAlreadyOn: 'Two-step sign-in is already on.',
  totpNotOn: 'Two-step sign-in is not on.',
  totpLegacyLogin: 'This account uses two-step sign-in: log in with /api/v1/token/.',
  serverError: 'A server error occurred.',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again shortly.',
} as const;

/** Stable `code` values of error answers. */
export const errorCodes = {
  tokenNotValid: 'token_not_valid',
  throttled: 'throttled',
  serviceUnavailable: 'service_unavailable',
  mfaInvalid: 'mfa_invalid',
} as const;
