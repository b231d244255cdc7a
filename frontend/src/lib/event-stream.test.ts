import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { postEventStream } from './event-stream';
import { configureHttp } from './http';
import { setSessionUser } from './session';

describe('postEventStream', () => {
  afterEach(() => configureHttp({ onUnauthorized: () => undefined }));

  it('carries the console headers: the user id and the console language', async () => {
    setSessionUser({ id: 9, username: 'u', display_name: '', role: 1, status: 1, group: '' });
    const { calls } = mockApi({
      'POST /pg/chat/completions': () =>
        new Response('data: {"n":1}\n\ndata: [DONE]\n\n', {
          headers: { 'Content-Type': 'text/event-stream' },
        }),
    });
    const seen: string[] = [];
    const end = await postEventStream(
      '/pg/chat/completions',
      { a: 1 },
      { onData: (d) => void seen.push(d) },
    );
    expect(end).toEqual({ kind: 'done' });
    expect(seen).toEqual(['{"n":1}']);
    expect(calls[0]?.headers).toMatchObject({
      'New-Api-User': '9',
      'Accept-Language': 'zh-CN',
      Accept: 'text/event-stream',
    });
    expect(calls[0]?.body).toEqual({ a: 1 });
  });

  it('an expired session signs out like every console call, and ends the stream with the error', async () => {
    const onUnauthorized = vi.fn();
    configureHttp({ onUnauthorized });
    mockApi({
      'POST /pg/chat/completions': () =>
        new Response(JSON.stringify({ success: false, message: '未登录' }), { status: 401 }),
    });
    const end = await postEventStream('/pg/chat/completions', {}, { onData: () => false });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(end).toEqual({ kind: 'error', message: '未登录' });
  });
});
