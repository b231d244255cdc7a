/**
 * BILLING_DURABILITY=strict on a stream whose bytes pass as the upstream sent them: the event that
 * tells a client its answer is complete (OpenAI's `[DONE]`, the Responses API's last event,
 * Anthropic's `message_stop`) is held back until the request's receipt is committed, with
 * everything after it. A stream without such an event is complete only at its end, which the relay
 * writes after the commit anyway.
 */
const FINAL_MARKERS = [
  'data: [DONE]',
  'data:[DONE]',
  'event: message_stop',
  'event: response.completed',
  'event: response.incomplete',
  'event: response.failed',
].map((marker) => Buffer.from(marker));

const NOTHING = Buffer.alloc(0);

export class FinalEventHold {
  private held: Buffer = NOTHING;
  /** True once a final event was found: from there on everything is held. */
  private final = false;

  /** The part of `chunk` that may go to the client now. */
  push(chunk: Buffer): Buffer {
    const data = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    if (this.final) {
      this.held = data;
      return NOTHING;
    }
    let at = -1;
    for (const marker of FINAL_MARKERS) {
      const found = data.indexOf(marker);
      if (found !== -1 && (at === -1 || found < at)) at = found;
    }
    if (at !== -1) {
      this.final = true;
      this.held = Buffer.from(data.subarray(at));
      return data.subarray(0, at);
    }
    // A marker may begin at the chunk's end and go on in the next: hold that much back.
    const keep = partialMarkerAtEnd(data);
    this.held = keep > 0 ? Buffer.from(data.subarray(data.length - keep)) : NOTHING;
    return keep > 0 ? data.subarray(0, data.length - keep) : data;
  }

  /** What waits for the commit. */
  rest(): Buffer {
    const held = this.held;
    this.held = NOTHING;
    return held;
  }
}

/** The longest end of `data` that is the start of a marker (0: none). */
function partialMarkerAtEnd(data: Buffer): number {
  let longest = 0;
  for (const marker of FINAL_MARKERS) {
    for (let k = Math.min(marker.length - 1, data.length); k > longest; k--) {
      if (data.compare(marker, 0, k, data.length - k) === 0) {
        longest = k;
        break;
      }
    }
  }
  return longest;
}
