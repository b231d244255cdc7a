import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSessionUser } from '@/lib/session';
import { mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { DeleteAccountModal } from './delete-account-modal';

describe('delete own account', () => {
  it('refuses until the typed name equals the own username', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<DeleteAccountModal opened onClose={() => undefined} username="alice" />, {
      user: ordinaryUser,
    });

    await userEvent.type(await screen.findByPlaceholderText('alice'), 'alic');
    await userEvent.click(screen.getByRole('button', { name: '确认删除' }));

    expect(await screen.findByText('请输入你的账户名以确认删除！')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('deletes, signs out locally and goes to /login', async () => {
    const { calls } = mockApi({ 'DELETE /api/user/self': () => ok() });
    const { router } = renderWithProviders(
      <DeleteAccountModal opened onClose={() => undefined} username="alice" />,
      { route: '/setting', user: ordinaryUser },
    );

    await userEvent.type(await screen.findByPlaceholderText('alice'), 'alice');
    await userEvent.click(screen.getByRole('button', { name: '确认删除' }));

    expect(await screen.findByText('账户已删除！')).toBeInTheDocument();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getSessionUser()).toBeNull();
    expect(calls.filter((call) => call.path === '/api/user/self')).toHaveLength(1);
  });
});
