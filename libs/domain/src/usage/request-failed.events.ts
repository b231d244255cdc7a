import type { DomainEvent } from '../shared/decider';

/** The most of an upstream's message a failure event keeps (characters). */
export const FAILURE_MESSAGE_MAX = 1024;

/**
 * A relayed call that failed after every attempt (the client got an error): appended to the same
 * `usage-<process>-<hour>` stream as the receipts (event id derived from `requestId`), only for an
 * authenticated call that reached channel selection and only while `ErrorLogEnabled` is on. It
 * charges nothing: the reservation was released when the last attempt failed. The error log row
 * (type 5), the dashboard's failure rates and the channel's last failure follow from it.
 */
export type RequestFailed = DomainEvent<
  'RequestFailed',
  {
    readonly requestId: string;
    readonly userId: number;
    /** 0 for the playground. */
    readonly tokenId: number;
    readonly tokenName: string;
    readonly group: string;
    /** The model the client asked for. */
    readonly model: string;
    /** The channel of the last attempt (its status and message are these). */
    readonly channelId: number;
    /** Every channel tried, in order. */
    readonly channelChain: readonly number[];
    /** Relay route, e.g. `/v1/chat/completions`. */
    readonly endpoint: string;
    /** The HTTP status the client was answered with. */
    readonly status: number;
    /** What the upstream said, the channels' keys masked, at most FAILURE_MESSAGE_MAX characters. */
    readonly message: string;
    /** Attempts after the first. */
    readonly retries: number;
    readonly useTimeMs: number;
    readonly stream: boolean;
    readonly ip: string;
    /** Always 0: a failed call is never charged (kept so every usage row reads the same). */
    readonly quota: 0;
  }
>;

export const FAILURE_EVENT_TYPES: readonly RequestFailed['type'][] = ['RequestFailed'];

/** The message as a failure event keeps it: cut at FAILURE_MESSAGE_MAX characters. */
export function boundedFailureMessage(message: string): string {
  return message.length > FAILURE_MESSAGE_MAX ? message.slice(0, FAILURE_MESSAGE_MAX) : message;
}
