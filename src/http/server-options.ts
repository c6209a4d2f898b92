// What the HTTP(S) server itself decides, before Express sees a request: how
// long a client may take to send its headers and its whole request, how long
// an idle keep-alive connection stays open, whether to invite a body announced
// with `Expect: 100-continue`, and every answer Node would otherwise write itself
// with an empty body or none (a request its parser refuses, an HTTP/1.1 request
// without Host, an `Expect` it cannot meet, CONNECT): each in the envelope.
//
// Call configureHttpServer(server, config) on every server that serves the
// platform's app, before listen(), and put requireHostHeader first in the app.
import type http from 'node:http';
import type https from 'node:https';
import type { Duplex } from 'node:stream';
import type { Config } from '../config.js';
import { DomainError, type ErrorCode } from '../errors.js';
import { sendError } from './errors.js';
import type { NextFunction } from './exchange.js';

/** Node's default, stated: request line plus headers, in bytes (431 above it). */
export const MAX_HEADER_BYTES = 16 * 1024;

interface ParserAnswer {
  status: number;
  code: ErrorCode;
  message: string;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
  505: 'HTTP Version Not Supported',
};

/** The methods the service serves on some path; CONNECT is none of them. */
const SERVED_METHODS = 'GET, HEAD, POST, PUT, DELETE';

/** The answer to an error Node's HTTP parser (or its timers) raised on a connection. */
export function parserErrorAnswer(error: NodeJS.ErrnoException, config: Pick<Config, 'http'>): ParserAnswer {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'PAYLOAD_TOO_LARGE',
        message: `The request line and headers must total at most ${MAX_HEADER_BYTES} bytes`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The chunk extensions are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'VALIDATION_ERROR',
        message:
          `The request was not received in time: headers within ${config.http.headersTimeoutMs / 1000} s, ` +
          `the whole request within ${config.http.requestTimeoutMs / 1000} s`,
      };
    case 'HPE_INVALID_METHOD':
      return { status: 400, code: 'VALIDATION_ERROR', message: 'The request method is not valid' };
    case 'HPE_INVALID_VERSION':
      return { status: 505, code: 'VALIDATION_ERROR', message: 'The HTTP version is not supported: use HTTP/1.1' };
    case 'HPE_INVALID_URL':
      return { status: 400, code: 'VALIDATION_ERROR', message: 'The request target is not a valid URL' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, code: 'VALIDATION_ERROR', message: 'The Content-Length header is not valid' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, code: 'VALIDATION_ERROR', message: 'The chunked body is not valid' };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { status: 400, code: 'VALIDATION_ERROR', message: 'A request header is not valid' };
    default:
      return { status: 400, code: 'VALIDATION_ERROR', message: 'The request is not valid HTTP/1.1' };
  }
}

/** The headers of an answer the server writes itself, before the app's own. */
function answerHeaders(body: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...extra,
    Connection: 'close',
  };
}

const envelope = ({ code, message }: ParserAnswer) => JSON.stringify({ error: { code, message } });

/** The whole raw response: the envelope, closed connection, the headers every answer carries. */
function rawAnswer(answer: ParserAnswer, extra?: Record<string, string>): string {
  const body = envelope(answer);
  const headers = Object.entries(answerHeaders(body, extra)).map(([name, value]) => `${name}: ${value}`);
  return [`HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? 'Error'}`, ...headers, '', body].join('\r\n');
}

/** The same answer on a response Node made (the request was parsed), closing the connection. */
function answerOn(res: http.ServerResponse, answer: ParserAnswer): void {
  const body = envelope(answer);
  res.shouldKeepAlive = false;
  res.writeHead(answer.status, answerHeaders(body));
  res.end(body);
}

/**
 * Whether an answer on the connection has started to go out. Node's own test (its
 * default clientError handling): the response in flight, if any, has sent its
 * head. Not the socket's bytesWritten, which on a kept-alive connection counts
 * the earlier, finished answers too and would leave every later error unanswered.
 */
function answerStarted(socket: Duplex): boolean {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return Boolean(inFlight?.headersSent);
}

/** Node's `clientError` event: answer in the envelope if no answer has started, then close. */
function onClientError(config: Pick<Config, 'http'>) {
  return (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The client went away, or an answer already started: nothing sensible can be written.
    if (error.code === 'ECONNRESET' || !socket.writable || answerStarted(socket)) {
      socket.destroy();
      return;
    }
    socket.end(rawAnswer(parserErrorAnswer(error, config)));
    // A client that does not read must not keep the socket: end() waits for the write to drain.
    setTimeout(() => socket.destroy(), 1000).unref();
  };
}

/**
 * Timeouts chosen for an API (Node's defaults are 60 s for headers, 300 s for a
 * request and 5 s keep-alive, checked every 30 s) and parser errors in the envelope.
 */
export function configureHttpServer(
  server: http.Server | https.Server,
  config: Pick<Config, 'http' | 'bodyLimitBytes'>,
): void {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.http;
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  // Longer than the 60 s idle timeout of common load balancers, so the server never
  // closes a connection a balancer is about to reuse (which it would answer with a 502).
  server.keepAliveTimeout = keepAliveTimeoutMs;
  // Node checks the two timeouts above on this interval (30 s by default), which
  // would let a stalled client hold its connection up to 30 s longer. Read at listen().
  (server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    1000,
    Math.max(100, headersTimeoutMs / 4),
  );
  server.on('clientError', onClientError(config));
  // Node answers an HTTP/1.1 request without Host with an empty 400: requireHostHeader
  // (the app's first handler) answers it instead.
  (server as unknown as { requireHostHeader: boolean }).requireHostHeader = false;
  // Any Expect but 100-continue: Node's answer is an empty 417.
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) =>
    answerOn(res, {
      status: 417,
      code: 'VALIDATION_ERROR',
      message: "The Expect header is not supported: only 'Expect: 100-continue' is",
    }),
  );
  // CONNECT (a request to tunnel, for proxies): Node closes the connection without a word.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.end(
      rawAnswer(
        { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'CONNECT is not allowed: this service is not a proxy' },
        { Allow: SERVED_METHODS },
      ),
    );
    setTimeout(() => socket.destroy(), 1000).unref();
  });
  // `Expect: 100-continue` (curl sends it for bodies over 1 MiB): invite the body only
  // if it may be accepted; otherwise the app answers 413 before the client sends it.
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!(Number(req.headers['content-length'] ?? 0) > config.bodyLimitBytes)) res.writeContinue();
    server.emit('request', req, res);
  });
}

/**
 * RFC 9112 3.2: an HTTP/1.1 request without a Host header is a 400, here in the
 * envelope (configureHttpServer turns Node's own, empty answer off). HTTP/1.0 may omit it.
 */
export function requireHostHeader(req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction): void {
  if (req.headers.host !== undefined || req.httpVersion !== '1.1') return next();
  res.setHeader('Connection', 'close');
  sendError(res, new DomainError('VALIDATION_ERROR', 'An HTTP/1.1 request needs a Host header', 'Host'));
}
