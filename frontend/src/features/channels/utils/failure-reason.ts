/** Why a channel failed, as the console words it: the upstream's raw text stays secondary. */
export type FailureReasonKey =
  'refused' | 'timeout' | 'notFound' | 'unauthorized' | 'forbidden' | 'rateLimited' | 'serverError';

const HTTP_UNAUTHORIZED = 401;
const HTTP_FORBIDDEN = 403;
const HTTP_TOO_MANY = 429;
const HTTP_SERVER_ERROR = 500;

/** Network error codes Node puts at the head of the message, and what each means. */
const NETWORK_CODES: ReadonlyArray<readonly [RegExp, FailureReasonKey]> = [
  [/\bECONNREFUSED\b/, 'refused'],
  [/\bETIMEDOUT\b|\bUND_ERR_CONNECT_TIMEOUT\b|timed? ?out/i, 'timeout'],
  [/\bENOTFOUND\b|\bEAI_AGAIN\b/, 'notFound'],
];

/**
 * The reason's key for an upstream `status` (0 or absent: no HTTP answer) and its raw `message`;
 * undefined when nothing better than the raw text can be said.
 */
export function failureReasonKey(message: string, status = 0): FailureReasonKey | undefined {
  if (status === HTTP_UNAUTHORIZED) return 'unauthorized';
  if (status === HTTP_FORBIDDEN) return 'forbidden';
  if (status === HTTP_TOO_MANY) return 'rateLimited';
  if (status >= HTTP_SERVER_ERROR) return 'serverError';
  if (status > 0) return undefined;
  return NETWORK_CODES.find(([pattern]) => pattern.test(message))?.[1];
}
