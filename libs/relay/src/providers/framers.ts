/** The stream framing each adaptor declares, as a framer for one answer. */
import { AwsEventStreamFramer } from './bedrock/event-stream-framer';
import type { StreamFraming } from './chat-adaptor';
import { type FramedEvent, NdjsonFramer, SseFramer } from './framing';

/** Splits a provider's stream bytes into events. */
export interface Framer {
  push(chunk: Buffer): FramedEvent[];
  end(): FramedEvent[];
}

export function framerFor(framing: StreamFraming): Framer {
  switch (framing) {
    case 'ndjson':
      return new NdjsonFramer();
    case 'aws-eventstream':
      return new AwsEventStreamFramer();
    default:
      return new SseFramer();
  }
}
