import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_ENDED_HEADER } from '@tollgate/contracts';
import { mockApi, ok } from '@/test/mock-api';
import { ApiError, configureHttp, http, HttpError, UnauthorizedError } from './http';
import { i18n } from './i18n';
import { setSessionUser } from './session';

describe('http client', () => {
  afterEach(() => configureHttp({ onUnauthorized: () => undefined }));

  it('unwraps data and names the stored user in New-Api-User', async () => {
    const { calls } = mockApi({ 'GET /api/user/self': () => ok({ id: 7 }) });
    setSessionUser({ id: 7, username: 'u', display_name: '', role: 1, status: 1, group: '' });

    await expect(http.get('/api/user/self')).resolves.toEqual({ id: 7 });
    expect(calls[0]?.headers['New-Api-User']).toBe('7');
  });

  it('asks for server messages in the console language', async () => {
    const { calls } = mockApi({ 'GET /api/status': () => ok({}) });
    await i18n.changeLanguage('zh-CN');
    await http.get('/api/status');
    await i18n.changeLanguage('en');
    await http.get('/api/status');
    expect(calls.map((call) => call.headers['Accept-Language'])).toEqual(['zh-CN', 'en']);
  });

  it('sends no user header when signed out, and drops undefined query values', async () => {
    const { calls } = mockApi({ 'GET /api/user/search': () => ok([]) });
    await http.get('/api/user/search', { keyword: 'a', group: undefined, p: 2 });
    expect(calls[0]?.headers['New-Api-User']).toBeUndefined();
    expect(calls[0]?.query.toString()).toBe('keyword=a&p=2');
  });

  it('turns success=false into an ApiError carrying the server message', async () => {
    mockApi({ 'POST /api/user/': () => ({ success: false, message: '用户名已存在' }) });
    const error = await http.post('/api/user/', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: '用户名已存在',
      envelope: { success: false, message: '用户名已存在' },
    });
  });

  it('hands a 401 to the configured handler', async () => {
    const onUnauthorized = vi.fn();
    configureHttp({ onUnauthorized });
    mockApi({ 'GET /api/user/self': () => new Response('{}', { status: 401 }) });
    await expect(http.get('/api/user/self')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('an answer that ended the session (a banned user) hands its message over and signs out', async () => {
    const onUnauthorized = vi.fn();
    const onSessionEnded = vi.fn();
    configureHttp({ onUnauthorized, onSessionEnded });
    mockApi({
      'GET /api/user/self': () =>
        new Response(JSON.stringify({ success: false, message: '用户已被封禁' }), {
          status: 200,
          headers: { 'Content-Type': 'application/json', [SESSION_ENDED_HEADER]: 'banned' },
        }),
    });
    const error = await http.get('/api/user/self').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ message: '用户已被封禁' });
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('用户已被封禁');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('a success=false answer without the header stays an ordinary failure', async () => {
    const onSessionEnded = vi.fn();
    configureHttp({ onUnauthorized: vi.fn(), onSessionEnded });
    mockApi({ 'GET /api/user/self': () => ({ success: false, message: '用户已被封禁' }) });
    const error = await http.get('/api/user/self').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: '用户已被封禁' });
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('reports other HTTP failures with their status', async () => {
    mockApi({
      'GET /api/x': () => new Response(JSON.stringify({ message: 'boom' }), { status: 502 }),
    });
    const error = await http.get('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 502, message: 'boom' });
  });
});
