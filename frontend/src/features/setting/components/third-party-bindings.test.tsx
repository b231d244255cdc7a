import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BindingsCard } from './bindings-card';
import { mockApi } from '@/test/mock-api';
import { userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';

describe('personal tab: third-party bindings', () => {
  it('offers a bind per enabled provider while unbound, and shows bound ids', async () => {
    mockApi({});
    renderWithProviders(<BindingsCard user={userFixture({ github_id: '1001' })} />, {
      status: {
        github_oauth: true,
        wechat_login: true,
        oidc_enabled: true,
        linuxdo_oauth: true,
      },
    });
    expect(await screen.findByText('1001')).toBeInTheDocument();
    // WeChat, OIDC and Linux DO unbound: a bind each; GitHub bound: none.
    expect(await screen.findAllByRole('button', { name: '绑定' })).toHaveLength(3);
    expect(screen.getByText('OIDC')).toBeInTheDocument();
    expect(screen.getByText('Linux DO')).toBeInTheDocument();
  });

  it('shows the bound OIDC subject and Linux DO id without a bind button', async () => {
    mockApi({});
    renderWithProviders(
      <BindingsCard user={userFixture({ oidc_id: 'sub-7', linux_do_id: '42' })} />,
      { status: { oidc_enabled: true, linuxdo_oauth: true } },
    );
    expect(await screen.findByText('sub-7')).toBeInTheDocument();
    expect(screen.getByText('42')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '绑定' })).toBeNull();
  });

  it('binds WeChat with the typed code and ignores an empty one', async () => {
    const { calls } = mockApi({
      'GET /api/oauth/wechat/bind': () => ({ success: true, message: 'bind' }),
    });
    renderWithProviders(<BindingsCard user={userFixture()} />, { status: { wechat_login: true } });
    await userEvent.click(await screen.findByRole('button', { name: '绑定' }));
    const dialog = await screen.findByRole('dialog');
    const submit = () =>
      userEvent.click(
        screen.getAllByRole('button', { name: '绑定' }).find((b) => dialog.contains(b))!,
      );
    await submit();
    expect(calls.some((c) => c.path === '/api/oauth/wechat/bind')).toBe(false);
    await userEvent.type(screen.getByLabelText('验证码'), '123456');
    await submit();
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/oauth/wechat/bind')?.query.get('code')).toBe(
        '123456',
      ),
    );
    expect(await screen.findByText('绑定成功！')).toBeInTheDocument();
  });
});
