import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { PasswordResetPage } from './password-reset-page';

describe('password reset page', () => {
  it('sends the mail and waits 30 seconds before a retry', async () => {
    const { calls } = mockApi({ 'GET /api/reset_password': () => ok() });
    renderWithProviders(<PasswordResetPage />, { route: '/reset' });

    await userEvent.type(screen.getByLabelText('邮箱地址'), 'bob@example.com');
    await userEvent.click(screen.getByRole('button', { name: '提交' }));

    expect(await screen.findByText('重置邮件发送成功，请检查邮箱！')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重试 (30)' })).toBeDisabled();
    expect(calls.find((call) => call.path === '/api/reset_password')?.query.get('email')).toBe(
      'bob@example.com',
    );
  });
});
