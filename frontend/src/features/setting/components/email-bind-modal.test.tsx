import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { userFixture } from '@/test/fixtures';
import { mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { BindingsCard } from './bindings-card';

describe('email bind dialog (bindings card)', () => {
  it('mails a code, waits 30 s before another, binds with the code and refreshes the profile', async () => {
    const { calls } = mockApi({
      'GET /api/verification': () => ok(),
      'GET /api/oauth/email/bind': () => ok(),
      'GET /api/user/self': () => ok(userFixture({ email: 'new@example.com' })),
    });
    renderWithProviders(<BindingsCard user={userFixture({ email: '' })} />, {
      route: '/setting',
      user: ordinaryUser,
    });

    await userEvent.click(screen.getByRole('button', { name: '绑定邮箱' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('邮箱地址'), 'new@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: '获取验证码' }));

    expect(await screen.findByText('验证码发送成功，请检查你的邮箱！')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '重试 (30)' })).toBeDisabled();
    expect(calls.find((c) => c.path === '/api/verification')?.query.get('email')).toBe(
      'new@example.com',
    );

    await userEvent.type(within(dialog).getByLabelText('验证码'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: '绑定邮箱' }));
    expect(await screen.findByText('邮箱账户绑定成功！')).toBeInTheDocument();
    const bind = calls.find((c) => c.path === '/api/oauth/email/bind');
    expect(Object.fromEntries(bind?.query ?? [])).toEqual({
      email: 'new@example.com',
      code: '123456',
    });
  });

  it('shows the refusal of a wrong code and keeps the dialog open', async () => {
    mockApi({
      'GET /api/oauth/email/bind': () => ({ success: false, message: '验证码错误或已过期' }),
    });
    renderWithProviders(<BindingsCard user={userFixture({ email: 'old@example.com' })} />, {
      route: '/setting',
      user: ordinaryUser,
    });
    // A bound address is shown, and can be changed.
    expect(screen.getByText('old@example.com')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '更换邮箱' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('邮箱地址'), 'new@example.com');
    await userEvent.type(within(dialog).getByLabelText('验证码'), '000000');
    await userEvent.click(within(dialog).getByRole('button', { name: '绑定邮箱' }));
    expect(await screen.findByText('验证码错误或已过期')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('asks for the address before mailing a code', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<BindingsCard user={userFixture({ email: '' })} />, {
      route: '/setting',
      user: ordinaryUser,
    });
    await userEvent.click(screen.getByRole('button', { name: '绑定邮箱' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('请输入邮箱地址！')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/verification')).toHaveLength(0);
  });
});
