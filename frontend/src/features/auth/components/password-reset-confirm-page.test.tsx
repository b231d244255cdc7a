import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubClipboard } from '@/test/clipboard';
import { mockApi, ok } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { PasswordResetConfirmPage } from './password-reset-confirm-page';

describe('password reset confirmation page', () => {
  it('spends the mailed link once and shows the new password with a copy button', async () => {
    const clipboard = stubClipboard();
    const { calls } = mockApi({ 'POST /api/user/reset': () => ok('N3wPassw0rdX') });
    renderWithProviders(<PasswordResetConfirmPage />, {
      route: '/user/reset?email=bob%40example.com&token=tok-123',
    });

    expect(screen.getByDisplayValue('bob@example.com')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '确认重置密码' }));

    expect(await screen.findByDisplayValue('N3wPassw0rdX')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/user/reset')?.body).toEqual({
      email: 'bob@example.com',
      token: 'tok-123',
    });
    // Copied at once, and again with the button; the link cannot be confirmed twice.
    await userEvent.click(screen.getByRole('button', { name: '复制' }));
    expect(clipboard.written).toEqual(['N3wPassw0rdX', 'N3wPassw0rdX']);
    expect(screen.getByRole('button', { name: '确认重置密码' })).toBeDisabled();
  });

  it('shows the server refusal of a spent or expired link and no password', async () => {
    mockApi({
      'POST /api/user/reset': () => ({ success: false, message: '重置链接非法或已过期' }),
    });
    renderWithProviders(<PasswordResetConfirmPage />, {
      route: '/user/reset?email=bob%40example.com&token=old',
    });
    await userEvent.click(screen.getByRole('button', { name: '确认重置密码' }));
    expect(await screen.findByText('重置链接非法或已过期')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '复制' })).not.toBeInTheDocument();
  });

  it('cannot confirm without both values of the link', () => {
    mockApi({});
    renderWithProviders(<PasswordResetConfirmPage />, { route: '/user/reset?email=a%40b.io' });
    expect(screen.getByRole('button', { name: '确认重置密码' })).toBeDisabled();
  });
});
