/**
 * Reading upstream answers: whole bodies (bounded), error bodies (bounded, never throwing), the
 * failure a transport error means, and waiting for a slow client to drain.
 */
import type { ServerResponse } from 'node:http';
import type { AttemptFailure } from '@tollgate/relay';
import type { Dispatcher } from 'undici';

export function headerText(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

export function networkFailure(error: unknown): AttemptFailure {
  const code = (error as { code?: string }).code ?? '';
  const message = (error as Error).message ?? String(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { kind: 'timeout', message };
  }
  return { kind: 'network', message: code ? `${code}: ${message}` : message };
}

/** The whole body, or an error past `limit` bytes. Events rather than `for await`: the async
 * iterator costs a promise and an object per chunk on every non-stream answer. */
export function readAll(body: Dispatcher.ResponseData['body'], limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        reject(
          Object.assign(new Error('upstream answer too large'), { code: 'TOLLGATE_TOO_LARGE' }),
        );
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () =>
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)),
    );
    body.once('error', reject);
  });
}

export async function readBounded(
  body: Dispatcher.ResponseData['body'],
  limit: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      if (size < limit) chunks.push(buf.subarray(0, limit - size));
      size += buf.length;
    }
  } catch {
    // a broken error body still tells us the status
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Largest non-stream answer kept in memory (images in b64 are big). */
export const MAX_JSON_ANSWER_BYTES = 64 * 1024 * 1024;
export const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** After the client left: keep reading the upstream this long / this much, then cut (still billed). */
export const AFTER_DISCONNECT_MAX_MS = 120_000;
export const AFTER_DISCONNECT_MAX_BYTES = 16 * 1024 * 1024;
