import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSessionUser } from '@/lib/session';
import { fail, mockApi, ok } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { GithubCallbackPage, LinuxDoCallbackPage, OidcCallbackPage } from './github-callback-page';
import { LoginPage } from './login-page';

const user = {
  id: 5,
  username: 'octocat',
  display_name: 'The Octocat',
  role: 1,
  status: 1,
  group: 'default',
  default_password: false,
};

describe('OAuth callback pages', () => {
  it('GitHub: signs in with code and state and goes to /token', async () => {
    const { calls } = mockApi({ 'GET /api/oauth/github': () => ok(user) });
    const { router } = renderWithProviders(<GithubCallbackPage />, {
      route: '/oauth/github?code=abc&state=xyz',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    const call = calls.find((c) => c.path === '/api/oauth/github')!;
    expect([call.query.get('code'), call.query.get('state')]).toEqual(['abc', 'xyz']);
    expect(getSessionUser()?.username).toBe('octocat');
    expect(calls.filter((c) => c.path === '/api/oauth/github')).toHaveLength(1);
  });

  it("GitHub: a 'bind' answer goes to /setting without changing the stored user", async () => {
    mockApi({ 'GET /api/oauth/github': () => ({ success: true, message: 'bind' }) });
    const { router } = renderWithProviders(<GithubCallbackPage />, {
      route: '/oauth/github?code=abc&state=xyz',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting'));
    expect(await screen.findByText('绑定成功！')).toBeInTheDocument();
    expect(getSessionUser()).toBeNull();
  });

  it('GitHub: a failure shows its message and goes to /setting', async () => {
    mockApi({ 'GET /api/oauth/github': () => fail('登录状态无效或已过期，请重新发起登录') });
    const { router } = renderWithProviders(<GithubCallbackPage />, {
      route: '/oauth/github?code=abc&state=bad',
    });
    expect(await screen.findByText(/登录状态无效或已过期/)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting'));
  });

  it('OpenID Connect: the same flow on /api/oauth/oidc', async () => {
    const { calls } = mockApi({ 'GET /api/oauth/oidc': () => ok(user) });
    const { router } = renderWithProviders(<OidcCallbackPage />, {
      route: '/oauth/oidc?code=c1&state=s1',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(calls.find((c) => c.path === '/api/oauth/oidc')?.query.get('code')).toBe('c1');
  });
});

describe('login page: third-party buttons', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('GitHub asks for a state, then goes to the authorize URL the status names', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { calls } = mockApi({ 'GET /api/oauth/state': () => ok('state-123') });
    renderWithProviders(<LoginPage />, {
      route: '/login',
      status: {
        github_oauth: true,
        github_client_id: 'client-9',
        github_authorize_url: 'http://127.0.0.1:9/login/oauth/authorize',
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '使用 GitHub 登录' }));
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const target = new URL(assign.mock.calls[0]![0] as string);
    expect(`${target.origin}${target.pathname}`).toBe('http://127.0.0.1:9/login/oauth/authorize');
    expect(target.searchParams.get('client_id')).toBe('client-9');
    expect(target.searchParams.get('state')).toBe('state-123');
    expect(calls.some((c) => c.path === '/api/oauth/state')).toBe(true);
  });

  it('OIDC asks the server for the authorization URL and goes there', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const url =
      'https://sso.example.com/authorize?client_id=sso-client&state=s&nonce=n&code_challenge=c&code_challenge_method=S256';
    const { calls } = mockApi({ 'GET /api/oauth/oidc/authorize': () => ok(url) });
    renderWithProviders(<LoginPage />, {
      route: '/login',
      status: {
        oidc_enabled: true,
        oidc_client_id: 'sso-client',
        oidc_authorization_endpoint: 'https://sso.example.com/authorize',
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '使用 OIDC 登录' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(url));
    // The browser builds no URL of its own and asks for no bare state.
    expect(calls.map((c) => c.path)).not.toContain('/api/oauth/state');
  });

  it('OIDC: a refusal of the server is shown and the browser stays', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    mockApi({ 'GET /api/oauth/oidc/authorize': () => fail('管理员未开启通过 OIDC 登录以及注册') });
    renderWithProviders(<LoginPage />, { route: '/login', status: { oidc_enabled: true } });
    await userEvent.click(await screen.findByRole('button', { name: '使用 OIDC 登录' }));
    expect(await screen.findByText('管理员未开启通过 OIDC 登录以及注册')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('Linux DO sends the browser to its authorize URL with the client id and a state', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    mockApi({ 'GET /api/oauth/state': () => ok('state-ld') });
    renderWithProviders(<LoginPage />, {
      route: '/login',
      status: {
        linuxdo_oauth: true,
        linuxdo_client_id: 'ld-client',
        linuxdo_authorize_url: 'https://connect.linux.do/oauth2/authorize',
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: '使用 Linux DO 登录' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        'https://connect.linux.do/oauth2/authorize?response_type=code&client_id=ld-client&state=state-ld',
      ),
    );
  });

  it('Linux DO: the callback page hands code and state to /api/oauth/linuxdo', async () => {
    const { calls } = mockApi({
      'GET /api/oauth/linuxdo': () => ({ success: true, message: 'bind' }),
    });
    renderWithProviders(<LinuxDoCallbackPage />, { route: '/oauth/linuxdo?code=l1&state=s2' });
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/oauth/linuxdo')?.query.get('state')).toBe('s2'),
    );
    expect(calls.find((c) => c.path === '/api/oauth/linuxdo')?.query.get('code')).toBe('l1');
  });
});
