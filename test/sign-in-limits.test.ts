// Failed sign-ins are limited per account and per client address, and the limit
// holds under parallel guessing: an attempt is counted before its password is
// checked, and a right password gives its point back.
import { describe, expect, it } from 'vitest';
import { useServer, type ServerFixture } from './support/fixtures.js';
import { Browser, consentUrl, createApp, createUser, formOf, type TestUser } from './support/oauth.js';

const REDIS_URL = process.env.REDIS_URL;

/** An organization with an app, and a sign-in form of one of its authorization requests. */
async function signInPage(server: ServerFixture) {
  const org = await server.org();
  const app = await createApp(server, org.id);
  const url = consentUrl(app);
  /** A browser on the sign-in page: `submit` posts its form (as often as asked, also at once). */
  const open = async () => {
    const browser = new Browser(server.url);
    const form = formOf((await browser.get(url)).html);
    expect(form.action).toBe('/oauth/sign-in');
    return (user: { email: string; password: string }) =>
      browser.post(form.action, { ...form.fields, email: user.email, password: user.password });
  };
  return { org, open };
}

const stores: [string, Record<string, string>][] = [
  ['the PostgreSQL store', {}],
  ...(REDIS_URL ? ([['the Redis store', { REDIS_URL }]] as [string, Record<string, string>][]) : []),
];

describe.each(stores)('parallel wrong passwords against one account (%s)', (_store, env) => {
  const server = useServer({
    ...env,
    SIGN_IN_MAX_FAILURES: '5',
    SIGN_IN_ADDRESS_MAX_FAILURES: '1000',
    RATE_LIMIT_MAX: '100000',
  });

  it('check at most the limit; the rest are refused unchecked, and so is the right password then', async () => {
    const { org, open } = await signInPage(server);
    const victim: TestUser = await createUser(server, org.id);
    const submit = await open();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => submit({ email: victim.email, password: `wrong guess ${i}` })),
    );
    const statuses = answers.map((answer) => answer.status);
    // 401 is a checked password; 429 an attempt refused before any check.
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(45);
    const locked = await (await open())(victim);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.html).toContain('Too many failed sign-ins');
  });
});

describe('a right password', () => {
  const server = useServer({ SIGN_IN_MAX_FAILURES: '3', SIGN_IN_ADDRESS_MAX_FAILURES: '3' });

  it('costs nothing: successes never use up the budgets that failures have', async () => {
    const { org, open } = await signInPage(server);
    const user = await createUser(server, org.id);
    // More successes than either budget holds, from one address (each in a new browser:
    // a sign-in changes the session, and with it the form's CSRF token).
    for (let i = 0; i < 5; i++) expect((await (await open())(user)).status).toBe(303);
    // Every failure the budgets allow is still checked, then the limit answers.
    const submit = await open();
    for (let i = 0; i < 3; i++) expect((await submit({ email: user.email, password: `wrong ${i}` })).status).toBe(401);
    expect((await submit({ email: user.email, password: 'wrong again' })).status).toBe(429);
  });
});
