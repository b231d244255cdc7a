import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { publishChange } from '@/lib/change-bus';
import { mockApi, ok } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { formatDateTime } from '@/utils/date-time';
import type { HistoryItem } from '../api/history.api';
import { HistoryButton } from './history-button';

const ROOT = { kind: 'user', id: 1, username: 'root', role: 100 } as const;
const created: HistoryItem = {
  time: 1_700_000_000,
  type: 'TokenCreated',
  entity: { kind: 'token', id: 7 },
  actor: ROOT,
  reason: '',
  request_id: '',
  ip: '',
  changes: [
    { field: 'name', before: null, after: 'laptop' },
    { field: 'expired_time', before: null, after: -1 },
    { field: 'unlimited_quota', before: null, after: true },
    { field: 'allow_ips', before: null, after: [] },
    { field: 'group', before: null, after: '' },
    { field: 'status', before: null, after: 1 },
    { field: 'key', before: null, after: 'changed', secret: true },
  ],
};
const updated: HistoryItem = {
  ...created,
  time: 1_700_000_100,
  type: 'TokenUpdated',
  changes: [{ field: 'expired_time', before: -1, after: 1_800_000_000 }],
  reason: 'expired',
};

describe('history in words', () => {
  it('labels fields as the form does and shows names, dates, never and 是/否', async () => {
    mockApi({
      'GET /api/token/7/history': () => ok({ items: [created], total: 1, page: 1, page_size: 10 }),
    });
    renderWithProviders(<HistoryButton subject={{ kind: 'token', id: 7 }} name="laptop" />, {
      user: rootUser,
    });
    await userEvent.click(screen.getByRole('button', { name: 'laptop 的历史' }));
    const drawer = await screen.findByRole('dialog', { name: '令牌历史：laptop' });
    const entry = await within(drawer).findByTestId('history-item');
    const lines = within(entry)
      .getAllByTestId('history-change')
      .map((line) => line.textContent);
    expect(lines).toEqual([
      '名称: laptop',
      '过期时间: 永不过期',
      '设为无限额度: 是',
      '状态: 已启用',
      '密钥: 已更改',
    ]);
    expect(entry).not.toHaveTextContent('（空）');
    expect(entry).not.toHaveTextContent('expired_time');
  });

  it('reads the history again when the subject is pushed as changed', async () => {
    let items = [created];
    const { calls } = mockApi({
      'GET /api/token/7/history': () => ok({ items, total: items.length, page: 1, page_size: 10 }),
    });
    renderWithProviders(<HistoryButton subject={{ kind: 'token', id: 7 }} name="laptop" />, {
      user: rootUser,
    });
    await userEvent.click(screen.getByRole('button', { name: 'laptop 的历史' }));
    const drawer = await screen.findByRole('dialog', { name: '令牌历史：laptop' });
    await within(drawer).findByTestId('history-item');
    items = [updated, created];
    act(() => publishChange({ topic: 'tokens', id: 7 }));
    expect(await within(drawer).findByText(formatDateTime(1_800_000_000))).toBeInTheDocument();
    expect(within(drawer).getByText('原因：已过期')).toBeInTheDocument();
    const reads = calls.filter((c) => c.path === '/api/token/7/history');
    expect(reads.length).toBeGreaterThanOrEqual(2);
  });
});
