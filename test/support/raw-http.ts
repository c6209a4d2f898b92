// Bytes on a TCP socket, for requests no HTTP client would send: malformed
// request lines, lying Content-Length headers, stalled uploads.
import net from 'node:net';

export interface RawResponse {
  /** 0 when nothing arrived before the wait ended. */
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** Milliseconds from the first byte written to the whole answer read. */
  ms: number;
  /** Whether the server closed the connection by the time the answer was read. */
  closed: boolean;
}

function parse(buffer: Buffer): Omit<RawResponse, 'ms' | 'closed'> | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buffer.length < end + 4 + length) return undefined;
  const text = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, text, body };
}

/**
 * Writes `chunks` to a new connection to `baseUrl` (without ending it) and
 * reads one answer, waiting at most `waitMs`.
 */
export async function rawRequest(
  baseUrl: string,
  chunks: (string | Buffer)[] | string | Buffer,
  { waitMs = 5000 }: { waitMs?: number } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const started = performance.now();
  let received = Buffer.alloc(0);
  let closed = false;
  return new Promise<RawResponse>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      const parsed = parse(received);
      if (!parsed && !closed && performance.now() - started < waitMs) return;
      done = true;
      clearTimeout(timer);
      const result: RawResponse = {
        ...(parsed ?? { status: 0, headers: {}, text: received.toString('latin1'), body: undefined }),
        ms: performance.now() - started,
        closed,
      };
      // Let a close that follows the answer at once be seen.
      setTimeout(() => {
        result.closed = closed;
        socket.destroy();
        resolve(result);
      }, 50);
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (data) => {
      received = Buffer.concat([received, data]);
      finish();
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', () => {});
    for (const chunk of Array.isArray(chunks) ? chunks : [chunks]) socket.write(chunk);
  });
}
