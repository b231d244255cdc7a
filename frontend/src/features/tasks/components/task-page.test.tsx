import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TaskRow } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { publishChange } from '@/lib/change-bus';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders, rootUser } from '@/test/render';
import { formatDateTime, nowSeconds, startOfDay } from '@/utils/date-time';
import { TaskPage } from './task-page';

const SUBMIT = Math.floor(new Date(2026, 10, 20, 12, 0, 0).getTime() / 1000);

const CLIPS = [
  { id: 'clip-a', status: 'complete', title: 'Song A', audio_url: 'https://cdn.example.com/a.mp3' },
  { id: 'clip-b', status: 'complete', title: 'Song B', audio_url: 'https://cdn.example.com/b.mp3' },
  { id: 'clip-c', status: 'streaming', title: 'Song C', audio_url: '' },
];

function taskRow(overrides: Partial<TaskRow> = {}): TaskRow {
  return {
    id: 1,
    created_at: SUBMIT,
    updated_at: SUBMIT + 40,
    task_id: 'suno-task-1',
    platform: 'suno',
    user_id: 2,
    channel_id: 7,
    quota: 50_000,
    refund_quota: 0,
    action: 'MUSIC',
    status: 'SUCCESS',
    fail_reason: '',
    submit_time: SUBMIT,
    start_time: SUBMIT + 2,
    finish_time: SUBMIT + 40,
    progress: '100%',
    data: CLIPS,
    ...overrides,
  };
}

const ROWS = [
  taskRow({ id: 4 }),
  taskRow({
    id: 3,
    task_id: 'suno-task-3',
    action: 'LYRICS',
    status: 'FAILURE',
    finish_time: SUBMIT + 75,
    fail_reason: 'lyrics refused',
    refund_quota: 25_000,
    data: CLIPS,
    progress: '',
  }),
  taskRow({
    id: 2,
    task_id: 'suno-task-2',
    status: 'QUEUED',
    finish_time: 0,
    progress: '0%',
    data: [],
  }),
  taskRow({ id: 1, task_id: 'suno-task-0', status: '', finish_time: 0, progress: '', data: null }),
];

function setup(options: { user?: typeof rootUser; rows?: () => TaskRow[] } = {}) {
  const rows = options.rows ?? (() => ROWS);
  const page = (call: RecordedCall) => {
    const all = rows();
    return ok(call.path === '/api/task/self' ? all.map(({ channel_id: _, ...row }) => row) : all);
  };
  const api = mockApi({ 'GET /api/task/': page, 'GET /api/task/self': page });
  renderWithProviders(<TaskPage />, { route: '/task', user: options.user ?? ordinaryUser });
  const lists = () =>
    api.calls.filter((call) => call.path === '/api/task/' || call.path === '/api/task/self');
  return { ...api, lists };
}

const row = (id: number) => screen.findByTestId(`task-row-${id}`);

describe('task log page', { timeout: 20_000 }, () => {
  it('shows a user their own tasks with platform, action, status, times and refund', async () => {
    const { lists } = setup();
    const done = within(await row(4));
    expect(done.getByText('Suno')).toBeInTheDocument();
    expect(done.getByText('生成音乐')).toBeInTheDocument();
    expect(done.getByText('成功')).toBeInTheDocument();
    expect(done.getByText(formatDateTime(SUBMIT))).toBeInTheDocument();
    expect(done.getByText(formatDateTime(SUBMIT + 40))).toBeInTheDocument();
    expect(done.getByText('40 秒').closest('[data-color]')).toHaveAttribute('data-color', 'green');
    expect(done.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    const failed = within(await row(3));
    expect(failed.getByText('生成歌词')).toBeInTheDocument();
    expect(failed.getByText('失败')).toBeInTheDocument();
    expect(failed.getByText('75 秒').closest('[data-color]')).toHaveAttribute('data-color', 'red');
    expect(failed.getByText('lyrics refused')).toBeInTheDocument();
    expect(failed.getByTestId('refund-tag')).toHaveTextContent('已退还 $0.05');

    expect(within(await row(2)).getByText('排队中')).toBeInTheDocument();
    expect(within(await row(1)).getByText('提交中')).toBeInTheDocument();

    const call = lists().at(-1)!;
    expect(call.path).toBe('/api/task/self');
    expect(call.query.get('p')).toBe('0');
    expect(call.query.has('channel_id')).toBe(false);
    // Seconds, from today's start, open-ended.
    expect(call.query.get('start_timestamp')).toBe(String(startOfDay(nowSeconds())));
    expect(call.query.has('end_timestamp')).toBe(false);
    expect(screen.queryByRole('textbox', { name: '渠道 ID' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: '渠道' })).not.toBeInTheDocument();
  });

  it('plays each finished clip that has audio, titled; none for unfinished or failed tasks', async () => {
    setup();
    const done = await row(4);
    const players = done.querySelectorAll('audio');
    expect([...players].map((audio) => audio.getAttribute('src'))).toEqual([
      'https://cdn.example.com/a.mp3',
      'https://cdn.example.com/b.mp3',
    ]);
    expect(players[0]).toHaveAttribute('controls');
    expect(within(done).getByText('Song A')).toBeInTheDocument();
    expect(within(done).getByText('Song B')).toBeInTheDocument();
    expect((await row(3)).querySelector('audio')).toBeNull();
    expect((await row(2)).querySelector('audio')).toBeNull();
  });

  it('opens the row as pretty-printed JSON from the task id', async () => {
    setup();
    await userEvent.click(within(await row(3)).getByRole('button', { name: 'suno-task-3' }));
    const dialog = await screen.findByRole('dialog', { name: '任务详情' });
    const json = within(dialog).getByTestId('task-json').textContent ?? '';
    expect(JSON.parse(json)).toMatchObject({
      task_id: 'suno-task-3',
      fail_reason: 'lyrics refused',
      data: CLIPS,
    });
    expect(json).toContain('\n  "task_id": "suno-task-3"');
  });

  it('gives admins every task, the channel column and filter; status and type filter at once', async () => {
    const { lists } = setup({ user: rootUser });
    expect(within(await row(4)).getByText('7')).toBeInTheDocument();
    expect(lists().at(-1)?.path).toBe('/api/task/');
    expect(screen.getByRole('columnheader', { name: '渠道' })).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: '渠道 ID' }), '7');
    await userEvent.type(screen.getByRole('textbox', { name: '任务 ID' }), 'suno-task-3');
    const from = Math.floor(new Date(2026, 0, 1).getTime() / 1000);
    const start = screen.getByRole('textbox', { name: '起始时间' });
    await userEvent.clear(start);
    await userEvent.type(start, formatDateTime(from));
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(lists().at(-1)?.query.get('channel_id')).toBe('7'));
    expect(lists().at(-1)?.query.get('task_id')).toBe('suno-task-3');
    expect(lists().at(-1)?.query.get('start_timestamp')).toBe(String(from));
    expect(lists().at(-1)?.query.has('end_timestamp')).toBe(true);

    await userEvent.click(screen.getByRole('combobox', { name: '任务状态' }));
    await userEvent.click(await screen.findByRole('option', { name: '失败' }));
    await waitFor(() => expect(lists().at(-1)?.query.get('status')).toBe('FAILURE'));
    await userEvent.click(screen.getByRole('combobox', { name: '任务类型' }));
    await userEvent.click(await screen.findByRole('option', { name: '生成歌词' }));
    await waitFor(() => expect(lists().at(-1)?.query.get('action')).toBe('LYRICS'));
    expect(lists().at(-1)?.query.get('status')).toBe('FAILURE');
  });

  it('disables next on a page of fewer than 10 rows', async () => {
    setup();
    await row(4);
    expect(screen.getByRole('button', { name: '下一页' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '上一页' })).toBeDisabled();
  });

  it('shows the empty state', async () => {
    setup({ rows: () => [] });
    expect(await screen.findByText('暂无数据')).toBeInTheDocument();
  });

  it('shows progress and the finished clips when the server pushes a task change', async () => {
    let finished = false;
    const { lists } = setup({
      rows: () => [
        finished
          ? taskRow({ id: 1 })
          : taskRow({ id: 1, status: 'IN_PROGRESS', progress: '30%', finish_time: 0, data: [] }),
      ],
    });
    expect(within(await row(1)).getByText('执行中')).toBeInTheDocument();
    expect((await row(1)).querySelector('audio')).toBeNull();
    const before = lists().length;
    finished = true;
    act(() => publishChange({ topic: 'tasks' }));
    await waitFor(() => expect(lists().length).toBeGreaterThan(before));
    expect(await within(await row(1)).findByText('成功')).toBeInTheDocument();
    expect((await row(1)).querySelectorAll('audio')).toHaveLength(2);
  });
});
