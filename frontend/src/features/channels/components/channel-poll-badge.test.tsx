import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChannelDto } from '@tollgate/contracts';
import { describe, expect, it, vi } from 'vitest';
import { publishChange } from '@/lib/change-bus';
import { channelFixture } from '@/test/fixtures';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { formatDateTime } from '@/utils/date-time';
import type { ChannelPollState } from '../api/channels.api';
import { ChannelsPage } from './channels-page';

const NOW = 1_700_000_000_000;

const pollState = (overrides: Partial<ChannelPollState>): ChannelPollState => ({
  channel_id: 0,
  open_tasks: 0,
  failures: 0,
  last_error: '',
  last_success_at: 0,
  next_poll_at: 0,
  ...overrides,
});

const taskChannels: ChannelDto[] = [
  channelFixture({ id: 1, name: 'openai-main' }),
  channelFixture({ id: 2, name: 'mj-plus', type: 5 }),
  channelFixture({ id: 3, name: 'mj-healthy', type: 2 }),
  channelFixture({ id: 4, name: 'suno', type: 36 }),
];

const states: ChannelPollState[] = [
  // The poller knows nothing of OpenAI channels; if it did, the table still shows nothing there.
  pollState({ channel_id: 1, failures: 9, last_error: 'should not show' }),
  pollState({
    channel_id: 2,
    open_tasks: 4,
    failures: 3,
    last_error: 'upstream 502 Bad Gateway',
    last_success_at: NOW - 60_000,
    next_poll_at: NOW + 120_000,
  }),
  pollState({ channel_id: 3, last_success_at: NOW }),
  pollState({ channel_id: 4, open_tasks: 2, last_success_at: NOW }),
];

const pollCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'GET' && call.path === '/api/task/poll-status');

function setup(rows: ChannelDto[]) {
  const api = mockApi({
    'GET /api/channel/': () => ok(rows),
    'GET /api/group/': () => ok(['default']),
    'GET /api/task/poll-status': () => ok(states),
  });
  renderWithProviders(<ChannelsPage />, { route: '/channel', user: rootUser });
  return api;
}

const row = (id: number) => screen.findByTestId(`channel-row-${id}`);

describe('channel management: task polling', () => {
  it('marks a failing Midjourney channel with the failure count and explains it', async () => {
    const { calls } = setup(taskChannels);
    const badge = await within(await row(2)).findByText('轮询失败 ×3');
    expect(pollCalls(calls)).toHaveLength(1);
    // Failing wins over the open-task count.
    expect(within(await row(2)).queryByText('4 个任务进行中')).not.toBeInTheDocument();

    await userEvent.hover(badge);
    expect(await screen.findByText('最近错误：upstream 502 Bad Gateway')).toBeInTheDocument();
    const nextPoll = formatDateTime((NOW + 120_000) / 1000);
    expect(screen.getByText(`下次轮询：${nextPoll}`)).toBeInTheDocument();
    expect(
      screen.getByText(`上次成功：${formatDateTime((NOW - 60_000) / 1000)}`),
    ).toBeInTheDocument();
  });

  it('shows nothing for a healthy task channel or an OpenAI channel; open tasks quietly', async () => {
    setup(taskChannels);
    await within(await row(2)).findByText('轮询失败 ×3');
    expect(within(await row(4)).getByText('2 个任务进行中')).toBeInTheDocument();
    for (const id of [1, 3]) {
      const cells = within(await row(id));
      expect(cells.queryByText(/轮询失败/)).not.toBeInTheDocument();
      expect(cells.queryByText(/个任务进行中/)).not.toBeInTheDocument();
    }
    expect(screen.queryByText(/should not show/)).not.toBeInTheDocument();
  });

  it('does not ask for the poll status when no task channel is listed', async () => {
    const { calls } = setup([
      channelFixture({ id: 1, name: 'openai-main' }),
      channelFixture({ id: 2, name: 'claude', type: 14 }),
    ]);
    await row(2);
    // Give a stray request the chance to go out.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(pollCalls(calls)).toHaveLength(0);
    expect(screen.queryByText(/轮询失败/)).not.toBeInTheDocument();
  });

  it('asks again when the server pushes a task or channel change', async () => {
    const { calls } = setup(taskChannels);
    await within(await row(2)).findByText('轮询失败 ×3');
    expect(pollCalls(calls)).toHaveLength(1);
    act(() => publishChange({ topic: 'tasks' }));
    await vi.waitFor(() => expect(pollCalls(calls)).toHaveLength(2));
  });
});
