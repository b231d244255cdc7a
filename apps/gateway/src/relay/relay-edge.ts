import { withFields } from '@tollgate/domain';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { newRequestId } from '../observability/request-id';
import { type RequestTracker, UNMATCHED_ROUTE } from '../observability/request-tracker';
import { pickRelayLang, RELAY_DEFAULT_LANG } from '../shared/i18n/messages';
import { type ClientWire, OPENAI_CLIENT } from './client-wire';
import { closeUnlessDrainable } from './relay-gate';
import {
  CORS_HEADERS,
  JSON_CONTENT_TYPE,
  REQUEST_ID_HEADER,
  relayError,
  sendError,
} from './relay-http';
import { pathOfUrl, wireOfRelayPath } from './relay-paths';

/**
 * The answers under the relay's prefixes that no relay handler writes — an unknown URL, a wrong
 * method, the router's and Node's HTTP parser's refusals — in the protocol of the path
 * (relay-paths.ts), so that a client of /v1 never has to read the console's envelope.
 */

/** The methods relay routes are registered with: probed to tell 405 from 404. */
const ROUTED_METHODS = ['GET', 'POST', 'DELETE'] as const;
/** How much of the method and path an error message repeats. */
const SHOWN_METHOD = 16;
const SHOWN_PATH = 200;
/** Enough of a packet to read a request line's method and the start of its path. */
const REQUEST_LINE_PEEK = 256;
const REQUEST_LINE = /^([A-Z]{1,16}) (\/[^\s?#]*)/;

const langOf = (req: IncomingMessage) => pickRelayLang(req.headers['accept-language']);

/** A request under a relay prefix that no relay route matches: 405 when another method would. */
export function answerUnmatched(
  front: FastifyInstance,
  req: IncomingMessage,
  res: ServerResponse,
  wire: ClientWire,
  tracker?: RequestTracker,
): void {
  const requestId = tracker?.begin(req, res, UNMATCHED_ROUTE).ownId ?? newRequestId();
  const method = req.method ?? 'GET';
  const path = pathOfUrl(req.url ?? '/');
  const shown = { method: method.slice(0, SHOWN_METHOD), path: path.slice(0, SHOWN_PATH) };
  const allowed = ROUTED_METHODS.filter((m) => m !== method && routes(front, m, path));
  closeUnlessDrainable(req, res);
  const lang = langOf(req);
  if (allowed.length > 0) {
    res.setHeader('allow', allowed.join(', '));
    const error = relayError({
      lang,
      status: 405,
      key: 'relay.method_not_allowed',
      params: shown,
      type: 'invalid_request_error',
      code: 'method_not_allowed',
    });
    return sendError(res, error, requestId, wire);
  }
  const error = relayError({
    lang,
    status: 404,
    key: 'relay.invalid_url',
    params: shown,
    type: 'invalid_request_error',
    code: 'not_found',
  });
  sendError(res, error, requestId, wire);
}

function routes(front: FastifyInstance, method: string, path: string): boolean {
  try {
    return front.findRoute({ method, url: path }) !== null;
  } catch {
    return false; // a path the router cannot decode matches nothing
  }
}

/**
 * The router's refusals on relay routes (Fastify's `frameworkErrors`): a parameter longer than its
 * maxParamLength (414) or not validly percent-encoded (400).
 */
export function answerFrameworkError(
  error: Error & { code?: string },
  req: IncomingMessage,
  res: ServerResponse,
  tracker?: RequestTracker,
): void {
  const requestId = tracker?.begin(req, res, UNMATCHED_ROUTE).ownId ?? newRequestId();
  const wire = wireOfRelayPath(pathOfUrl(req.url ?? '/')) ?? OPENAI_CLIENT;
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  closeUnlessDrainable(req, res);
  sendError(
    res,
    relayError({
      lang: langOf(req),
      status: tooLong ? 414 : 400,
      key: tooLong ? 'relay.uri_too_long' : 'relay.bad_url',
      type: 'invalid_request_error',
      code: tooLong ? 'uri_too_long' : 'invalid_url',
    }),
    requestId,
    wire,
  );
}

/** The path of the request line a packet starts with, if it does. */
export function requestPathOf(packet: Buffer | undefined): string | undefined {
  if (!packet) return undefined;
  return REQUEST_LINE.exec(packet.toString('latin1', 0, REQUEST_LINE_PEEK))?.[2];
}

const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string, string]>> = {
  // Node counts the request line with the headers: a URL over the limit is a 431 as well.
  HPE_HEADER_OVERFLOW: [431, 'relay.headers_too_large', 'headers_too_large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'relay.request_timeout', 'request_timeout'],
};
const MALFORMED: readonly [number, string, string] = [400, 'relay.bad_request', 'bad_request'];

/**
 * Node's HTTP parser refused a request before any handler saw it (headers over maxHeaderSize,
 * malformed): when the packet it choked on starts with a request line under a relay prefix, the
 * refusal is written in that protocol and the connection closed, as Node does. Otherwise nothing
 * is written here and the next `clientError` listener (Fastify's) answers. Returns whether it
 * answered.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
): boolean {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return false;
  const path = requestPathOf(error.rawPacket);
  const wire = path === undefined ? undefined : wireOfRelayPath(path);
  if (!wire) return false;
  const [status, code, errorCode] = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const requestId = newRequestId();
  // No headers were parsed, so no Accept-Language: the relay's default language.
  const failure = relayError({
    lang: RELAY_DEFAULT_LANG,
    status,
    key: code,
    type: 'invalid_request_error',
    code: errorCode,
  });
  const body = JSON.stringify(wire.errorBody(failure, requestId));
  const headers = withFields(CORS_HEADERS, {
    'content-type': JSON_CONTENT_TYPE,
    'content-length': String(Buffer.byteLength(body)),
    [REQUEST_ID_HEADER]: requestId,
    connection: 'close',
  });
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  socket.destroy();
  return true;
}
