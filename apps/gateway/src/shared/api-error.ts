import type { MessageParams } from './i18n/messages';

/**
 * An error answered in the envelope {success, message}. `status` is the HTTP status: 200 for
 * business failures, 401 only for missing or invalid sessions, 429 for rate limits.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly params: MessageParams = {},
    readonly status = 200,
  ) {
    super(code);
  }
}
