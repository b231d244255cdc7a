/**
 * HTTP/1.1 over a bare socket, for what an HTTP client library hides: when the server answered
 * while the upload was still going, whether it closed the connection, how many bytes it read.
 */
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not). */
  readonly json: unknown;
}

/** Parses the first HTTP answer in `raw` (undefined until its head and body are complete). */
export function parseAnswer(raw: string): RawAnswer | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? NaN);
  const body = raw.slice(end + 4);
  if (Number.isFinite(length) && Buffer.byteLength(body) < length) return undefined;
  const text = Number.isFinite(length) ? body.slice(0, length) : body;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, json };
}

/** The request head as written on the wire. */
export function requestHead(
  method: string,
  path: string,
  headers: Readonly<Record<string, string>>,
): string {
  const lines = Object.entries({ host: 'gateway', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** The server side of every connection a server accepts from now on (bytesRead stays readable). */
export function serverSockets(server: Server): { byClientPort(port: number): Socket | undefined } {
  const byPort = new Map<number, Socket>();
  // The peer's port is read now: once the socket is closed Node may no longer know it.
  server.on('connection', (socket: Socket) => byPort.set(socket.remotePort!, socket));
  return { byClientPort: (port) => byPort.get(port) };
}

export interface Upload {
  readonly socket: Socket;
  /** The client's port: how the server's side of the connection is found (serverSockets). */
  readonly port: number;
  /** Body bytes the client handed to its socket so far. */
  readonly bodySent: number;
  /** The raw bytes received so far. */
  readonly received: string;
  /** Resolves once the server closed (or reset) the connection. */
  readonly closed: Promise<void>;
  /** Writes `bytes` more of the body (resolves when the socket took them, false if it is gone). */
  send(bytes: number): Promise<boolean>;
  /** Writes the body as fast as the socket takes it until `total` bytes or the server closes. */
  blast(total: number): Promise<void>;
  /** Resolves with the first complete answer (rejects after `timeoutMs`). */
  answer(timeoutMs?: number): Promise<RawAnswer>;
}

const CHUNK = 64 * 1024;

/** Opens a connection and writes `head`; the body follows only as the test sends it. */
export async function startUpload(url: string, head: string): Promise<Upload> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const port = socket.localPort!;
  let received = '';
  let bodySent = 0;
  let gone = false;
  const filler = Buffer.alloc(CHUNK, 0x20);
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  // The server may reset a connection whose upload it refused: expected here.
  socket.on('error', () => (gone = true));
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      gone = true;
      resolve();
    }),
  );
  const send = (bytes: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (gone || socket.destroyed) return resolve(false);
      bodySent += bytes;
      socket.write(filler.subarray(0, bytes), (error) => resolve(!error));
    });
  socket.write(head);
  return {
    socket,
    port,
    get bodySent() {
      return bodySent;
    },
    get received() {
      return received;
    },
    closed,
    send,
    async blast(total: number) {
      while (bodySent < total && !gone) {
        if (!(await send(Math.min(CHUNK, total - bodySent)))) return;
      }
    },
    answer(timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = () => {
          const answer = parseAnswer(received);
          if (answer) return resolve(answer);
          if (Date.now() - started > timeoutMs)
            return reject(new Error(`no answer in ${timeoutMs} ms: ${received.slice(0, 200)}`));
          setTimeout(poll, 5);
        };
        poll();
      });
    },
  };
}

/** Writes a whole request and reads until the server closes the connection. */
export async function rawExchange(url: string, text: string): Promise<RawAnswer> {
  const upload = await startUpload(url, text);
  await upload.closed;
  const answer = parseAnswer(upload.received);
  if (!answer) throw new Error(`no answer: ${upload.received.slice(0, 200)}`);
  return answer;
}
