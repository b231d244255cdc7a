import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { ChangePasswordModal } from './change-password-modal';

async function fill(current: string, next: string, repeat: string) {
  await userEvent.type(await screen.findByLabelText('当前密码'), current);
  await userEvent.type(screen.getByLabelText('新密码'), next);
  await userEvent.type(screen.getByLabelText('确认密码'), repeat);
  await userEvent.click(screen.getByRole('button', { name: '确定' }));
}

describe('change password', () => {
  it('needs the two new entries to match', async () => {
    const { calls } = mockApi({});
    renderWithProviders(<ChangePasswordModal opened onClose={() => undefined} />, {
      user: ordinaryUser,
    });
    await fill('old-password', 'new-password-1', 'new-password-2');
    expect(await screen.findByText('两次输入的密码不一致！')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('sends the current and the new password', async () => {
    const { calls } = mockApi({ 'PUT /api/user/self': () => ok() });
    const onClose = vi.fn();
    renderWithProviders(<ChangePasswordModal opened onClose={onClose} />, { user: ordinaryUser });
    await fill('old-password', 'new-password', 'new-password');
    expect(await screen.findByText('密码修改成功！')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      password: 'new-password',
      original_password: 'old-password',
    });
  });
});
