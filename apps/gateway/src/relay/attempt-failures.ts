/** Failed attempts as the client is told about them. */
import { mapStatusCode, RelayError } from '@tollgate/relay';
import type { Lang } from '../shared/i18n/messages';
import type { AttemptResult, LastFailure } from './relay-call';
import { relayError } from './relay-http';
import { noChannel } from './relay-routing';

/** The error after the last attempt failed (none made: no channel), the channel's mapping applied. */
export function finalError(
  lang: Lang,
  group: string,
  model: string,
  last: LastFailure | undefined,
): RelayError {
  if (!last) return noChannel(lang, group, model);
  const { failure, channel } = last;
  if (failure.kind === 'network') {
    return relayError({
      lang,
      status: mapStatusCode(502, channel.statusCodeMapping),
      key: 'relay.upstream_unreachable',
      type: 'upstream_error',
      code: 'upstream_unreachable',
    });
  }
  if (failure.kind === 'timeout') {
    return relayError({
      lang,
      status: mapStatusCode(504, channel.statusCodeMapping),
      key: 'relay.upstream_timeout',
      type: 'upstream_error',
      code: 'upstream_timeout',
    });
  }
  const status = mapStatusCode(failure.status, channel.statusCodeMapping);
  if (failure.status === 429) {
    // one-api and new-api hide which upstream was saturated; the client only needs to back off.
    return relayError({
      lang,
      status,
      key: 'relay.upstream_saturated',
      type: 'rate_limit_error',
      code: failure.code || 'upstream_rate_limited',
      retryAfter: 1,
    });
  }
  return new RelayError(
    status,
    failure.message,
    (failure.type || 'upstream_error') as 'upstream_error',
    failure.code || null,
  );
}

/** A channel whose type (or this endpoint on it) the relay cannot speak: that channel's failure. */
export function unsupported(type: number, endpoint?: string): AttemptResult {
  return {
    kind: 'failed',
    failure: {
      kind: 'http',
      status: 501,
      message: endpoint
        ? `channel type ${type} does not support ${endpoint}`
        : `channel type ${type} is not supported by this relay`,
      type: 'tollgate_error',
      code: 'channel_type_unsupported',
    },
  };
}
