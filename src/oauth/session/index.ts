// The signed-in browser, for every page that needs a user: one cookie
// (cookie.ts), one CSRF mechanism (csrf.ts), one sign-in (sign-in.ts).
export { readCookie, readSessionCookie, SESSION_COOKIE } from './cookie.js';
export { csrfToken, validCsrf } from './csrf.js';
export { localPath, sendSignIn, signedInUser, signInRouter, type SignInLimits } from './sign-in.js';
