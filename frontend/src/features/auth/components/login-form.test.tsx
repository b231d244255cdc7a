import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSessionUser } from '@/lib/session';
import { mockApi, ok } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { LoginPage } from './login-page';

const loginReply = {
  id: 1,
  username: 'root',
  display_name: 'Root User',
  role: 100,
  status: 1,
  group: 'default',
  default_password: false,
};

describe('login form', () => {
  it('asks for both username and password before calling the server', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<LoginPage />, { route: '/login' });

    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入用户名和密码！')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('用户名'), 'root');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findAllByText('请输入用户名和密码！')).toHaveLength(2);
    expect(calls.some((call) => call.path === '/api/user/login')).toBe(false);
  });

  it('stores the user and goes to /token after a successful login', async () => {
    const { calls } = mockApi({ 'POST /api/user/login': () => ok(loginReply) });
    const { router } = renderWithProviders(<LoginPage />, { route: '/login' });

    await userEvent.type(screen.getByLabelText('用户名'), 'root');
    await userEvent.type(screen.getByLabelText('密码'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByText('登录成功！')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/token');
    expect(getSessionUser()).toMatchObject({ id: 1, username: 'root', role: 100 });
    expect(calls.find((call) => call.path === '/api/user/login')?.body).toEqual({
      username: 'root',
      password: 'secret-pass',
    });
  });

  it('warns about the default password', async () => {
    mockApi({ 'POST /api/user/login': () => ok({ ...loginReply, default_password: true }) });
    renderWithProviders(<LoginPage />, { route: '/login' });

    await userEvent.type(screen.getByLabelText('用户名'), 'root');
    await userEvent.type(screen.getByLabelText('密码'), '123456');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByText('您正在使用默认密码！')).toBeInTheDocument();
    expect(screen.getByText('请立刻修改默认密码！')).toBeInTheDocument();
  });

  it('shows the server message of a failed login as an error', async () => {
    mockApi({
      'POST /api/user/login': () => ({ success: false, message: '用户名或密码错误' }),
    });
    renderWithProviders(<LoginPage />, { route: '/login' });

    await userEvent.type(screen.getByLabelText('用户名'), 'root');
    await userEvent.type(screen.getByLabelText('密码'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByText('用户名或密码错误')).toBeInTheDocument();
    expect(getSessionUser()).toBeNull();
  });

  it('shows the expired-session message from ?expired=true', async () => {
    mockApi({});
    renderWithProviders(<LoginPage />, { route: '/login?expired=true' });
    expect(await screen.findByRole('alert')).toHaveTextContent('未登录或登录已过期，请重新登录！');
  });

  it('shows third-party buttons only when the status enables them', async () => {
    mockApi({});
    renderWithProviders(<LoginPage />, {
      route: '/login',
      status: { github_oauth: true, wechat_login: true },
    });
    expect(await screen.findByRole('button', { name: '使用 GitHub 登录' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '使用微信登录' })).toBeInTheDocument();
    expect(screen.queryByTestId('telegram-login')).not.toBeInTheDocument();
    expect(screen.queryByTestId('turnstile')).not.toBeInTheDocument();
  });

  it('hides third-party buttons by default', async () => {
    mockApi({});
    renderWithProviders(<LoginPage />, { route: '/login' });
    await screen.findByRole('button', { name: '登录' });
    expect(screen.queryByRole('button', { name: '使用 GitHub 登录' })).not.toBeInTheDocument();
  });
});
