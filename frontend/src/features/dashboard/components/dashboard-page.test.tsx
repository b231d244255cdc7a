import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QuotaDataRowDto } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { publishChange } from '@/lib/change-bus';
import { nowSeconds } from '@/utils/date-time';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders, rootUser } from '@/test/render';
import { DashboardPage } from './dashboard-page';

const hourAgo = Math.floor(nowSeconds() / 3600) * 3600 - 3600;
const rows: QuotaDataRowDto[] = [
  { model_name: 'gpt-4o', created_at: hourAgo, count: 3, quota: 1_000_000, token_used: 600 },
  { model_name: 'gpt-3.5-turbo', created_at: hourAgo, count: 2, quota: 500_000, token_used: 840 },
];

function setup({
  user = ordinaryUser,
  answer = rows,
  status = {},
}: {
  user?: typeof ordinaryUser;
  answer?: QuotaDataRowDto[];
  status?: Record<string, unknown>;
} = {}) {
  const data = (_call: RecordedCall) => ok(answer);
  const failures = () => ok([{ key: 'gpt-4o', channel_id: 0, calls: 4, failed: 1 }]);
  const api = mockApi({
    'GET /api/data/self': data,
    'GET /api/data/': data,
    'GET /api/data/self/failures': failures,
    'GET /api/data/failures': failures,
    'GET /api/channel/performance': () => ok([]),
  });
  const view = renderWithProviders(<DashboardPage />, {
    route: '/detail',
    user,
    status: {
      enable_data_export: true,
      display_in_currency: true,
      quota_per_unit: 500_000,
      ...status,
    },
  });
  const dataCalls = () =>
    api.calls.filter(
      (call) => call.path.startsWith('/api/data') && !call.path.endsWith('failures'),
    );
  return { ...api, ...view, dataCalls };
}

const card = (name: string) => screen.getByTestId(`dashboard-card-${name}`);

describe('DashboardPage', () => {
  it('shows the failure rate of the own calls per model', async () => {
    setup();
    const table = await screen.findByTestId('dashboard-failures');
    expect(within(table).getByText('模型失败率')).toBeInTheDocument();
    expect(within(table).getByText('25.0%')).toBeInTheDocument();
  });

  it("reads the user's own rows over the default range and sums them in the cards", async () => {
    const { dataCalls } = setup({ status: { data_export_default_time: 'day' } });
    await waitFor(() => expect(within(card('count')).getByText('5')).toBeInTheDocument());
    expect(within(card('quota')).getByText('$3.00')).toBeInTheDocument();
    expect(within(card('tokens')).getByText('1,440')).toBeInTheDocument();
    // 'day' → the last 7 days (and an hour ahead): RPM = 5 requests / minutes of the range.
    const [call] = dataCalls();
    expect(call!.path).toBe('/api/data/self');
    const start = Number(call!.query.get('start_timestamp'));
    const end = Number(call!.query.get('end_timestamp'));
    expect(end - start).toBe(7 * 24 * 3600 + 3600);
    const rpm = Math.round((5 / ((end - start) / 60)) * 1000) / 1000;
    expect(within(card('rpm')).getByText(String(rpm))).toBeInTheDocument();
    expect(screen.getByTestId('dashboard-chart-quota')).toBeInTheDocument();
    expect(screen.getByTestId('dashboard-chart-share')).toBeInTheDocument();
    expect(screen.queryByTestId('dashboard-empty')).not.toBeInTheDocument();
    // Default granularity follows DataExportDefaultTime.
    expect(screen.getByRole('radio', { name: '天' })).toBeChecked();
    expect(screen.queryByLabelText('用户名称')).not.toBeInTheDocument();
  });

  it('shows the empty state without rows', async () => {
    setup({ answer: [] });
    expect(await screen.findByText('所选时间范围内暂无数据')).toBeInTheDocument();
    expect(screen.queryByTestId('dashboard-chart-quota')).not.toBeInTheDocument();
    expect(within(card('quota')).getByText('$0.00')).toBeInTheDocument();
  });

  it('admin: reads /api/data/ and filters by username', async () => {
    const { dataCalls } = setup({ user: rootUser });
    await waitFor(() => expect(dataCalls()).toHaveLength(1));
    expect(dataCalls()[0]!.path).toBe('/api/data/');
    expect(dataCalls()[0]!.query.has('username')).toBe(false);
    await userEvent.type(screen.getByLabelText('用户名称'), 'alice');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(dataCalls()).toHaveLength(2));
    expect(dataCalls()[1]!.query.get('username')).toBe('alice');
  });

  it('refuses a malformed time without calling the server', async () => {
    const { dataCalls } = setup();
    await waitFor(() => expect(dataCalls()).toHaveLength(1));
    const start = screen.getByLabelText('起始时间');
    await userEvent.clear(start);
    await userEvent.type(start, '2026-13-01');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    expect(await screen.findByText('时间格式错误！')).toBeInTheDocument();
    expect(dataCalls()).toHaveLength(1);
  });

  it('refetches on `usage` pushes, at most once per interval', async () => {
    const { dataCalls } = setup();
    await waitFor(() => expect(dataCalls()).toHaveLength(1));
    act(() => {
      publishChange({ topic: 'usage' });
      publishChange({ topic: 'usage' });
      publishChange({ topic: 'usage' });
      publishChange({ topic: 'logs' });
    });
    await waitFor(() => expect(dataCalls()).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(dataCalls()).toHaveLength(2);
  });
});
