/** The RequestFailed of a call whose every attempt failed: who, where, what the upstream said. */
import { boundedFailureMessage, type RequestFailed, withFields } from '@tollgate/domain';
import type { RelayError } from '@tollgate/relay';
import { callFacts } from './call-facts';
import type { LastFailure, Prepared } from './relay-call';

/**
 * The failure event of `p`, answered `error` after `last` (already scrubbed of the channel's key),
 * at `now`. No quota: the reservation was released, nothing is charged.
 */
export function buildFailure(
  p: Prepared,
  last: LastFailure,
  error: RelayError,
  now: number,
): RequestFailed['data'] {
  const { call } = p;
  return withFields(callFacts(p, last.channel.id), {
    status: error.status,
    message: boundedFailureMessage(last.failure.message || error.message),
    retries: Math.max(0, p.chain.length - 1),
    useTimeMs: Math.max(0, now - call.startedAt),
    stream: p.facts.stream,
    ip: call.ip,
    quota: 0,
  });
}
