import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChannelPerformanceDto } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { publishChange } from '@/lib/change-bus';
import { mockApi, ok } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { ChannelPerformanceCard } from './channel-performance-card';

const row = (fields: Partial<ChannelPerformanceDto>): ChannelPerformanceDto => ({
  channel_id: 1,
  channel_name: 'c',
  model: 'gpt-4o',
  calls: 1,
  answered: 1,
  failed: 0,
  error_rate: 0,
  share: 1,
  p50_ms: null,
  p99_ms: null,
  ttft_p50_ms: null,
  ttft_p99_ms: null,
  ...fields,
});

const rows = [
  row({
    channel_id: 1,
    channel_name: 'fast',
    calls: 30,
    failed: 3,
    error_rate: 0.1,
    share: 0.75,
    p50_ms: 51,
    p99_ms: 338,
  }),
  row({
    channel_id: 2,
    channel_name: 'slow',
    calls: 10,
    share: 0.25,
    p50_ms: 1709,
    p99_ms: 2563,
    ttft_p50_ms: 760,
  }),
];

function setup() {
  const api = mockApi({ 'GET /api/channel/performance': () => ok(rows) });
  renderWithProviders(<ChannelPerformanceCard />, { route: '/detail', user: rootUser });
  const calls = () => api.calls.filter((call) => call.path === '/api/channel/performance');
  return { calls };
}

const names = () =>
  screen
    .getAllByTestId(/^performance-row-/)
    .map((tr) => within(tr).getAllByRole('cell')[0]!.textContent);

describe('ChannelPerformanceCard', () => {
  it('shows each channel × model of the last hour with its figures', async () => {
    const { calls } = setup();
    const fast = await screen.findByTestId('performance-row-1:gpt-4o');
    expect(calls()[0]!.query.get('window')).toBe('60');
    for (const text of ['fast', '30', '10.0%', '75.0%', '51 ms', '338 ms', '—'])
      expect(within(fast).getAllByText(text).length).toBeGreaterThan(0);
    const slow = screen.getByTestId('performance-row-2:gpt-4o');
    for (const text of ['0.0%', '25.0%', '1.7 s', '2.6 s', '760 ms'])
      expect(within(slow).getByText(text)).toBeInTheDocument();
  });

  it('sorts by a column when its header is clicked', async () => {
    setup();
    await screen.findByTestId('performance-row-1:gpt-4o');
    expect(names()).toEqual(['fast', 'slow']);
    const p50 = screen.getByRole('button', { name: /耗时 p50/ });
    // Numbers sort the largest first, then the smallest first.
    await userEvent.click(p50);
    await waitFor(() => expect(names()).toEqual(['slow', 'fast']));
    await userEvent.click(p50);
    await waitFor(() => expect(names()).toEqual(['fast', 'slow']));
  });

  it('refetches on `performance` pushes, throttled', async () => {
    const { calls } = setup();
    await waitFor(() => expect(calls()).toHaveLength(1));
    act(() => {
      publishChange({ topic: 'performance' });
      publishChange({ topic: 'performance' });
      publishChange({ topic: 'usage' });
    });
    await waitFor(() => expect(calls()).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls()).toHaveLength(2);
  });
});
