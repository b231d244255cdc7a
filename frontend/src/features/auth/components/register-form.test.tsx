import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { readString, StorageKey } from '@/lib/storage';
import { mockApi, ok } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { RegisterPage } from './register-page';

async function fill(username: string, password: string, password2: string) {
  await userEvent.type(screen.getByLabelText('用户名'), username);
  await userEvent.type(screen.getByLabelText('密码'), password);
  await userEvent.type(screen.getByLabelText('确认密码'), password2);
  await userEvent.click(screen.getByRole('button', { name: '注册' }));
}

describe('register form', () => {
  it('rejects a password shorter than 8 characters', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await fill('bob', 'short', 'short');
    expect(await screen.findByText('密码长度不得小于 8 位！')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/user/register')).toBe(false);
  });

  it('rejects two different passwords', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await fill('bob', 'long-enough-1', 'long-enough-2');
    expect(await screen.findByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/user/register')).toBe(false);
  });

  it('requires username and password', async () => {
    mockApi({});
    renderWithProviders(<RegisterPage />, { route: '/register' });
    await userEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('请输入用户名和密码！')).toBeInTheDocument();
  });

  it('remembers the aff code and sends it with the registration', async () => {
    const { calls } = mockApi({ 'POST /api/user/register': () => ok() });
    const { router } = renderWithProviders(<RegisterPage />, { route: '/register?aff=AB12' });
    expect(readString(StorageKey.affCode)).toBe('AB12');

    await fill('bob', 'long-enough', 'long-enough');
    expect(await screen.findByText('注册成功！')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(calls.find((call) => call.path === '/api/user/register')?.body).toEqual({
      username: 'bob',
      password: 'long-enough',
      password2: 'long-enough',
      email: '',
      verification_code: '',
      aff_code: 'AB12',
    });
  });

  it('shows email and code fields only when email verification is on', async () => {
    mockApi({});
    const first = renderWithProviders(<RegisterPage />, { route: '/register' });
    await screen.findByLabelText('用户名');
    expect(screen.queryByLabelText('邮箱地址')).not.toBeInTheDocument();
    first.unmount();

    renderWithProviders(<RegisterPage />, {
      route: '/register',
      status: { email_verification: true },
    });
    expect(await screen.findByLabelText('邮箱地址')).toBeInTheDocument();
    expect(screen.getByLabelText('验证码')).toBeInTheDocument();
  });

  it('needs an email before sending a code, then counts down', async () => {
    const { calls } = mockApi({ 'GET /api/verification': () => ok() });
    renderWithProviders(<RegisterPage />, {
      route: '/register',
      status: { email_verification: true },
    });
    await userEvent.click(await screen.findByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('请输入邮箱地址！')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('邮箱地址'), 'bob@example.com');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('验证码发送成功，请检查你的邮箱！')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重新发送 (30)' })).toBeDisabled();
    expect(calls.find((call) => call.path === '/api/verification')?.query.get('email')).toBe(
      'bob@example.com',
    );
  });

  it('tells when registration is closed', async () => {
    mockApi({});
    renderWithProviders(<RegisterPage />, {
      route: '/register',
      status: { register_enabled: false },
    });
    expect(await screen.findByText('管理员关闭了新用户注册。')).toBeInTheDocument();
  });
});
