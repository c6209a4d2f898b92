// The signed-in browser, for every page that needs a user: one cookie
// (cookie.ts), one CSRF mechanism (csrf.ts), one sign-in (sign-in.ts) and its limits (sign-in-limits.ts),
// and the session as a credential on /graphql (graphql-credential.ts).
export { readCookie, readSessionCookie, SESSION_COOKIE } from './cookie.js';
export { csrfToken, validCsrf } from './csrf.js';
export { bearerOrSession } from './graphql-credential.js';
export { localPath, sendSignIn, signedInUser, signInRouter } from './sign-in.js';
export type { SignInLimits } from './sign-in-limits.js';
