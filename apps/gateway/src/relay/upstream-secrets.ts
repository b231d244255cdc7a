/**
 * Many OpenAI-compatible servers quote the key they were sent in their errors. What an upstream
 * says goes through the channel's scrubber (libs/relay/src/secrets) before it becomes the client's
 * answer, a disable reason, an event or a log line: failures here, answers and streams where they
 * are read (docs/relay.md, "Secrets in upstream texts").
 */
import { withFields } from '@tollgate/domain';
import { channelScrubber, scrubFailure } from '@tollgate/relay';
import type { AttemptResult } from './relay-call';
import type { RoutedChannel } from './relay-ports';
import { headerText } from './upstream-io';

/** An attempt's failure with the channel's key masked in its texts. */
export function scrubbedResult(result: AttemptResult, channel: RoutedChannel): AttemptResult {
  if (result.kind !== 'failed') return result;
  return withFields(result, { failure: scrubFailure(result.failure, channelScrubber(channel)) });
}

/** An upstream header the client is given (the answer's content type), key masked. */
export function scrubbedHeader(
  value: string | string[] | undefined,
  channel: RoutedChannel,
): string {
  return channelScrubber(channel).text(headerText(value));
}
