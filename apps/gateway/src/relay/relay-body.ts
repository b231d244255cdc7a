import type { IncomingMessage, ServerResponse } from 'node:http';
import { RelayError } from '@tollgate/relay';
import type { Lang } from '../shared/i18n/messages';
import type { ClientWire } from './client-wire';
import { closeUnlessDrainable } from './relay-gate';
import { relayError, sendError } from './relay-http';

const MIB = 1024 * 1024;

/** Why a body was not read: the status and code Fastify's body parser gives the same case. */
export interface BodyFault {
  readonly statusCode: number;
  readonly code?: string;
  readonly message: string;
}

const TOO_LARGE: BodyFault = {
  statusCode: 413,
  code: 'FST_ERR_CTP_BODY_TOO_LARGE',
  message: 'Request body is too large',
};
const LENGTH_MISMATCH: BodyFault = {
  statusCode: 400,
  code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
  message: 'Request body size did not match Content-Length',
};

/**
 * Reads a request's body into one Buffer, as the relay's Fastify routes take it (their `*` parser
 * with `parseAs: 'buffer'`): refused at once when Content-Length says more than `limit`, refused as
 * soon as more than `limit` arrived, and refused when what arrived differs from Content-Length.
 * The relay's fast lane reads its bodies here, so both paths refuse the same bodies the same way.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  done: (fault: BodyFault | null, body: Buffer) => void,
): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return done(TOO_LARGE, EMPTY);
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    if (received <= limit) return void chunks.push(chunk);
    stop();
    done(TOO_LARGE, EMPTY);
  };
  const onEnd = (error?: Error & { statusCode?: number; code?: string }): void => {
    stop();
    if (error) return done(faultOf(error), EMPTY);
    if (!Number.isNaN(declared) && received !== declared) return done(LENGTH_MISMATCH, EMPTY);
    done(null, chunks.length === 1 ? (chunks[0] ?? EMPTY) : Buffer.concat(chunks, received));
  };
  const stop = (): void => {
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onEnd);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onEnd);
  req.resume();
}

const EMPTY = Buffer.alloc(0);

/** A thrown error as a body fault: its status when it carries one of 400 or more, else 400. */
export function faultOf(error: Error & { statusCode?: number; code?: string }): BodyFault {
  const statusCode =
    typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 400;
  return { statusCode, code: error.code, message: error.message };
}

/**
 * A body the relay did not take, answered in the route's protocol: 413 with the limit in MiB, any
 * other fault with its own message. The rest of the upload is cut unless it is small.
 */
export function answerBodyFault(
  req: IncomingMessage,
  res: ServerResponse,
  fault: BodyFault,
  how: { limit: number; lang: Lang; requestId: string; wire: ClientWire },
): void {
  const status = fault.statusCode >= 400 ? fault.statusCode : 400;
  closeUnlessDrainable(req, res);
  sendError(
    res,
    status === 413
      ? relayError({
          lang: how.lang,
          status: 413,
          key: 'relay.body_too_large',
          params: { limit: Math.floor(how.limit / MIB) },
          type: 'invalid_request_error',
          code: 'request_too_large',
        })
      : new RelayError(
          status,
          fault.message,
          'invalid_request_error',
          fault.code ?? 'invalid_request',
        ),
    how.requestId,
    how.wire,
  );
}
