import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUS } from '@/features/status';
import { userFixture } from '@/test/fixtures';
import { mockApi, ok, fail } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders, rootUser } from '@/test/render';
import { NotificationCard } from './notification-card';

const notices = {
  items: [
    {
      notice_id: 'quota-2-x',
      kind: 'quota_warning',
      channel: 'webhook',
      raised_time: Date.UTC(2026, 0, 1),
      delivered: true,
      closed: true,
      attempts: [
        { attempt: 1, ok: false, status: 500, error: 'HTTP 500', time: 1 },
        { attempt: 2, ok: true, status: 200, error: '', time: 2 },
      ],
    },
  ],
  total: 1,
};

describe('notification card', () => {
  it('shows the saved webhook settings (secret only as "set") and the recent notices', async () => {
    mockApi({ 'GET /api/user/notices': () => ok(notices) });
    const user = userFixture({
      setting: JSON.stringify({
        notify_type: 'webhook',
        quota_warning_threshold: 1_000_000,
        webhook_url: 'https://hooks.example.com/t',
        webhook_secret_set: true,
        notification_email: '',
        accept_admin_alerts: false,
      }),
    });
    renderWithProviders(<NotificationCard user={user} />, { user: ordinaryUser });
    const card = await screen.findByTestId('notification-card');
    expect(within(card).getByDisplayValue('https://hooks.example.com/t')).toBeInTheDocument();
    expect(within(card).getByDisplayValue('$2')).toBeInTheDocument(); // 1,000,000 / 500,000 per dollar
    expect(within(card).getByPlaceholderText('已设置，留空则保持不变')).toHaveValue('');
    // Not an administrator: no channel alerts switch.
    expect(within(card).queryByText(/接收渠道告警/)).toBeNull();
    const recent = await screen.findByTestId('recent-notices');
    expect(await within(recent).findByText('额度提醒')).toBeInTheDocument();
    expect(within(recent).getByText('已送达')).toBeInTheDocument();
    expect(within(recent).getByText('第 1 次：HTTP 500')).toBeInTheDocument();
    expect(within(recent).getByText('第 2 次：200 OK')).toBeInTheDocument();
  });

  it('saves the threshold in quota units, the secret only when typed, alerts for admins', async () => {
    const { calls } = mockApi({
      'GET /api/user/notices': () => ok({ items: [], total: 0 }),
      'PUT /api/user/setting': () => ok(),
    });
    renderWithProviders(<NotificationCard user={userFixture({ role: 100, setting: '' })} />, {
      user: rootUser,
    });
    await screen.findByTestId('notification-card');
    await userEvent.click(screen.getByLabelText('Webhook'));
    await userEvent.type(screen.getByLabelText('额度提醒阈值'), '3');
    await userEvent.type(screen.getByLabelText('Webhook 地址'), 'https://hooks.example.com/x');
    await userEvent.type(screen.getByLabelText('Webhook 密钥'), 'whsec-1');
    await userEvent.click(screen.getByLabelText(/接收渠道告警/));
    await userEvent.click(screen.getByRole('button', { name: '保存通知设置' }));
    await screen.findByText('通知设置已保存');
    expect(calls.find((c) => c.path === '/api/user/setting')?.body).toEqual({
      notify_type: 'webhook',
      quota_warning_threshold: 1_500_000,
      webhook_url: 'https://hooks.example.com/x',
      webhook_secret: 'whsec-1',
      notification_email: '',
      accept_admin_alerts: true,
    });
  });

  it('keeps the saved threshold in quota units when the display unit changes', async () => {
    const setting = JSON.stringify({
      notify_type: 'email',
      quota_warning_threshold: 1_000_000,
      webhook_url: '',
      webhook_secret_set: false,
      notification_email: '',
      accept_admin_alerts: false,
    });
    // The stored status shows plain quota; the server's says dollars (500,000 per dollar).
    const { calls } = mockApi({
      'GET /api/user/notices': () => ok({ items: [], total: 0 }),
      'GET /api/status': () => ok({ ...DEFAULT_STATUS, display_in_currency: true }),
      'PUT /api/user/setting': () => ok(),
    });
    renderWithProviders(<NotificationCard user={userFixture({ setting })} />, {
      user: ordinaryUser,
      status: { display_in_currency: false },
    });
    const card = await screen.findByTestId('notification-card');
    expect(await within(card).findByDisplayValue('$2')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '保存通知设置' }));
    await screen.findByText('通知设置已保存');
    expect(calls.find((c) => c.path === '/api/user/setting')?.body).toMatchObject({
      quota_warning_threshold: 1_000_000,
    });
  });

  it('sends a test and shows its failure', async () => {
    const { calls } = mockApi({
      'GET /api/user/notices': () => ok({ items: [], total: 0 }),
      'POST /api/user/setting/test': () => fail('测试通知发送失败：HTTP 500'),
    });
    renderWithProviders(<NotificationCard user={userFixture()} />, { user: ordinaryUser });
    await userEvent.click(await screen.findByRole('button', { name: '发送测试通知' }));
    expect(await screen.findByText('测试通知发送失败：HTTP 500')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/user/setting/test')).toHaveLength(1);
  });
});
