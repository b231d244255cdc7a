import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import { AwsEventStreamFramer } from './event-stream-framer';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });

function chunk(event: object): Buffer {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return Buffer.from(
    codec.encode({
      headers: {
        ':event-type': str('chunk'),
        ':content-type': str('application/json'),
        ':message-type': str('event'),
      },
      body: Buffer.from(JSON.stringify({ bytes, p: 'abcdefgh' })),
    }),
  );
}

function exception(type: string, message: string): Buffer {
  return Buffer.from(
    codec.encode({
      headers: {
        ':exception-type': str(type),
        ':content-type': str('application/json'),
        ':message-type': str('exception'),
      },
      body: Buffer.from(JSON.stringify({ message })),
    }),
  );
}

const start = { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 5 } } };
const delta = {
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text: 'héllo ✓' },
};
const stop = { type: 'message_stop' };

describe('AwsEventStreamFramer', () => {
  it('yields the decoded Anthropic event of each chunk message, several in one chunk', () => {
    const framer = new AwsEventStreamFramer();
    const events = framer.push(Buffer.concat([chunk(start), chunk(delta), chunk(stop)]));
    expect(events).toEqual([
      { name: undefined, data: JSON.stringify(start) },
      { name: undefined, data: JSON.stringify(delta) },
      { name: undefined, data: JSON.stringify(stop) },
    ]);
    expect(framer.end()).toEqual([]);
  });

  it('keeps a message cut anywhere (even inside the length prelude) until it is whole', () => {
    const bytes = Buffer.concat([chunk(start), chunk(delta), chunk(stop)]);
    for (const size of [1, 3, 7, 50]) {
      const framer = new AwsEventStreamFramer();
      const data: string[] = [];
      for (let i = 0; i < bytes.length; i += size) {
        // A fresh copy per piece: the framer must not keep views into the caller's buffers.
        for (const event of framer.push(Buffer.from(bytes.subarray(i, i + size))))
          data.push(event.data);
      }
      expect(data.map((d) => JSON.parse(d) as unknown)).toEqual([start, delta, stop]);
      expect(framer.end()).toEqual([]);
    }
  });

  it('turns exception messages into Anthropic error events', () => {
    const framer = new AwsEventStreamFramer();
    const events = framer.push(
      Buffer.concat([
        chunk(start),
        exception('throttlingException', 'Too many requests, please wait before trying again.'),
      ]),
    );
    expect(events[1]).toEqual({
      name: 'error',
      data: JSON.stringify({
        type: 'error',
        error: {
          type: 'throttlingException',
          message: 'Too many requests, please wait before trying again.',
        },
      }),
    });
    const model = framer.push(exception('modelStreamErrorException', 'model failed'));
    expect(JSON.parse(model[0]!.data)).toEqual({
      type: 'error',
      error: { type: 'modelStreamErrorException', message: 'model failed' },
    });
  });

  it('turns protocol error messages (:error-code in headers) into error events', () => {
    const framer = new AwsEventStreamFramer();
    const bytes = Buffer.from(
      codec.encode({
        headers: {
          ':message-type': str('error'),
          ':error-code': str('InternalFailure'),
          ':error-message': str('boom'),
        },
        body: new Uint8Array(0),
      }),
    );
    expect(framer.push(bytes).map((e) => JSON.parse(e.data) as unknown)).toEqual([
      { type: 'error', error: { type: 'InternalFailure', message: 'boom' } },
    ]);
  });

  it('skips events that are not chunks', () => {
    const framer = new AwsEventStreamFramer();
    const other = Buffer.from(
      codec.encode({
        headers: { ':message-type': str('event'), ':event-type': str('initial-response') },
        body: Buffer.from('{}'),
      }),
    );
    expect(framer.push(Buffer.concat([other, chunk(stop)]))).toEqual([
      { name: undefined, data: JSON.stringify(stop) },
    ]);
  });

  it('reports a corrupt message once and ignores what follows', () => {
    const framer = new AwsEventStreamFramer();
    const bad = chunk(delta);
    bad.writeUInt8(bad.readUInt8(bad.length - 1) ^ 0xff, bad.length - 1); // CRC mismatch
    const events = framer.push(Buffer.concat([chunk(start), bad, chunk(stop)]));
    expect(events).toHaveLength(2);
    expect(events[1]!.name).toBe('error');
    expect(JSON.parse(events[1]!.data)).toMatchObject({
      error: { type: 'invalid_event_stream' },
    });
    expect(framer.push(chunk(stop))).toEqual([]);
    expect(framer.end()).toEqual([]);
  });

  it('reports an impossible length as corrupt', () => {
    const framer = new AwsEventStreamFramer();
    const events = framer.push(Buffer.from([0, 0, 0, 3, 0, 0, 0, 0]));
    expect(JSON.parse(events[0]!.data)).toMatchObject({ error: { type: 'invalid_event_stream' } });
  });

  it('reports a stream that ends inside a message', () => {
    const framer = new AwsEventStreamFramer();
    const whole = chunk(start);
    expect(framer.push(Buffer.concat([whole, chunk(delta).subarray(0, 20)]))).toHaveLength(1);
    expect(framer.end()).toEqual([
      expect.objectContaining({
        name: 'error',
        data: expect.stringContaining('stream_truncated') as string,
      }),
    ]);
  });
});
