import { notifications } from '@mantine/notifications';
import { QueryClient } from '@tanstack/react-query';
import { SESSION_ENDED_HEADER } from '@tollgate/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureHttp, http } from '@/lib/http';
import { getSessionUser, isSessionExpired, setSessionUser } from '@/lib/session';
import { mockApi } from '@/test/mock-api';
import { installSessionExpiry } from './session-expiry';

const banned = () =>
  new Response(JSON.stringify({ success: false, message: '用户已被封禁' }), {
    status: 200,
    headers: { 'Content-Type': 'application/json', [SESSION_ENDED_HEADER]: 'banned' },
  });

function setup(pathname = '/token') {
  const navigate = vi.fn();
  const show = vi.spyOn(notifications, 'show');
  installSessionExpiry(new QueryClient(), { state: { location: { pathname } }, navigate });
  setSessionUser({ id: 2, username: 'alice', display_name: '', role: 1, status: 1, group: '' });
  return { navigate, show };
}

describe('session expiry', () => {
  afterEach(() => {
    configureHttp({ onUnauthorized: () => undefined });
    vi.restoreAllMocks();
  });

  it('a banned session: shows the answer once, forgets the user and goes to the login page', async () => {
    const { navigate, show } = setup();
    mockApi({ 'GET /api/user/self': banned, 'GET /api/token/': banned });
    await Promise.allSettled([http.get('/api/user/self'), http.get('/api/token/')]);
    expect(getSessionUser()).toBeNull();
    expect(isSessionExpired()).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ message: '用户已被封禁', color: 'red', id: 'session-ended' }),
    );
  });

  it('a 401 still signs out as expired', async () => {
    const { navigate, show } = setup();
    mockApi({ 'GET /api/user/self': () => new Response('{}', { status: 401 }) });
    await http.get('/api/user/self').catch(() => undefined);
    expect(getSessionUser()).toBeNull();
    expect(isSessionExpired()).toBe(true);
    expect(navigate).toHaveBeenCalledWith('/login?expired=true');
    expect(show).not.toHaveBeenCalled();
  });
});
