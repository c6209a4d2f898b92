// Whether the client reached the service over https: over TLS here, through a
// proxy that says so and that the service trusts (TRUST_PROXY), or because the
// address clients use, PUBLIC_URL, is https (a TLS proxy in front whose
// X-Forwarded-Proto is not trusted, or not sent). What depends on it: the session
// cookie's Secure flag and __Host- name, and HSTS.
//
// Kept as an app setting, as Express keeps `trust proxy` for req.secure, so that
// every handler asks the request without the configuration passed down to it.
import type { Express } from 'express';
import type { HttpRequest } from './exchange.js';

const PUBLIC_URL_IS_HTTPS = 'public url is https';

/** Declares the service's PUBLIC_URL to the app (once, where the app is composed). */
export function declarePublicUrl(app: Express, publicUrl: string): void {
  app.set(PUBLIC_URL_IS_HTTPS, new URL(publicUrl).protocol === 'https:');
}

type Trust = (address: string | undefined, hop: number) => boolean;

export function reachedOverHttps(req: HttpRequest): boolean {
  if (req.app.get(PUBLIC_URL_IS_HTTPS) === true) return true;
  const overTls = !!(req.socket as { encrypted?: boolean }).encrypted;
  // Without X-Forwarded-Proto this is the socket's TLS whoever the peer is: the
  // same answer without asking `trust proxy` about the peer's address.
  const forwarded = req.headers['x-forwarded-proto'];
  if (!forwarded) return overTls;
  // Express's req.protocol: the header's first value, from a peer `trust proxy` trusts.
  const trust = req.app.get('trust proxy fn') as Trust;
  if (!trust(req.socket.remoteAddress, 0)) return overTls;
  const first = (Array.isArray(forwarded) ? forwarded[0]! : forwarded).split(',')[0]!;
  return first.trim() === 'https';
}
