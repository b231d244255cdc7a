import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { type BodyFault, readBody } from './relay-body';

/** A request stream with these headers that sends `chunks` and ends (or fails with `error`). */
function fakeRequest(headers: Record<string, string>, chunks: string[], error?: Error) {
  const stream = new PassThrough();
  Object.assign(stream, { headers });
  setImmediate(() => {
    for (const chunk of chunks) stream.write(Buffer.from(chunk));
    if (error) stream.destroy(error);
    else stream.end();
  });
  return stream as unknown as IncomingMessage;
}

function read(
  req: IncomingMessage,
  limit = 16,
): Promise<{ fault: BodyFault | null; body: string }> {
  return new Promise((resolve) =>
    readBody(req, limit, (fault, body) => resolve({ fault, body: body.toString() })),
  );
}

describe('readBody', () => {
  it('joins the chunks into one buffer', async () => {
    const req = fakeRequest({ 'content-length': '7' }, ['{"a"', ':1}']);
    expect(await read(req)).toEqual({ fault: null, body: '{"a":1}' });
  });

  it('reads a body of unannounced length', async () => {
    expect(await read(fakeRequest({}, ['abc']))).toEqual({ fault: null, body: 'abc' });
  });

  it('refuses at once what Content-Length says is over the limit', async () => {
    const { fault } = await read(fakeRequest({ 'content-length': '17' }, []));
    expect(fault).toMatchObject({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  });

  it('stops reading when more than the limit arrived', async () => {
    const { fault } = await read(fakeRequest({}, ['x'.repeat(10), 'x'.repeat(10)]));
    expect(fault).toMatchObject({ statusCode: 413 });
  });

  it('refuses a body that differs from its Content-Length', async () => {
    const { fault } = await read(fakeRequest({ 'content-length': '9' }, ['short']));
    expect(fault).toMatchObject({ statusCode: 400, code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' });
  });

  it('turns a stream error into a 400 with its own message', async () => {
    const { fault } = await read(fakeRequest({}, ['ab'], new Error('aborted')));
    expect(fault).toMatchObject({ statusCode: 400, message: 'aborted' });
  });
});
