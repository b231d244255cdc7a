/** Fixtures the adaptor specs share (spec-only: nothing in the library imports this file). */
import type { WireChannel } from '../openai/openai-wire';
import type { JsonObject } from '../openai/request-body';
import type { StreamConverter } from './chat-adaptor';
import type { Framer } from './framers';
import { eventObject } from './framing';

/** A channel of `type`: the fields a spec names, the others empty. */
export function wireChannel(type: number, fields: Partial<WireChannel> = {}): WireChannel {
  return {
    type,
    baseUrl: '',
    key: '',
    other: '',
    openaiOrganization: '',
    modelMapping: {},
    ...fields,
  };
}

/** A request body's JSON. */
export const bodyOf = (buffer: Buffer) => JSON.parse(buffer.toString('utf8')) as JsonObject;

/**
 * Every chunk a converter makes of a raw stream, end() included. The bytes arrive in two reads cut
 * at `cut`, so an event straddles them: the converter must only ever see whole events.
 */
export function convertStream(
  converter: StreamConverter,
  framer: Framer,
  raw: string,
  cut: number,
): JsonObject[] {
  const chunks: JsonObject[] = [];
  const bytes = Buffer.from(raw);
  for (const part of [bytes.subarray(0, cut), bytes.subarray(cut)]) {
    for (const e of framer.push(part)) chunks.push(...converter.event(eventObject(e)!, e.name));
  }
  for (const e of framer.end()) chunks.push(...converter.event(eventObject(e)!, e.name));
  chunks.push(...converter.end());
  return chunks;
}

/** Each chunk's first delta, or `{usage}` for the usage-only chunk. */
export const deltas = (chunks: JsonObject[]) =>
  chunks.map((c) => (c.choices as JsonObject[])[0]?.delta ?? { usage: c.usage });
