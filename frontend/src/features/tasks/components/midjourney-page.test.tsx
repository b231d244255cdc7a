import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MidjourneyRow } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { publishChange } from '@/lib/change-bus';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders, rootUser } from '@/test/render';
import { formatDateTime } from '@/utils/date-time';
import { MidjourneyPage } from './midjourney-page';

const SUBMIT = new Date(2026, 10, 20, 12, 0, 0).getTime();

function mjRow(overrides: Partial<MidjourneyRow> = {}): MidjourneyRow {
  return {
    id: 1,
    code: 1,
    user_id: 2,
    action: 'IMAGINE',
    mj_id: '1700000000000001',
    prompt: 'a cat sitting on a very long windowsill watching the rain fall over the city',
    prompt_en: 'a cat',
    description: '',
    state: '',
    submit_time: SUBMIT,
    start_time: SUBMIT + 1_000,
    finish_time: SUBMIT + 30_000,
    image_url: 'https://cdn.example.com/cat.png',
    status: 'SUCCESS',
    progress: '100%',
    fail_reason: '',
    channel_id: 3,
    quota: 50_000,
    refund_quota: 0,
    buttons: '[]',
    properties: '{}',
    ...overrides,
  };
}

const ROWS = [
  mjRow({ id: 4 }),
  mjRow({
    id: 3,
    action: 'UPSCALE',
    code: 22,
    status: 'FAILURE',
    progress: '',
    image_url: '',
    finish_time: SUBMIT + 90_000,
    fail_reason: 'upstream said no',
    refund_quota: 50_000,
  }),
  mjRow({
    id: 2,
    action: 'SWAP_FACE',
    code: 21,
    status: 'IN_PROGRESS',
    progress: '45%',
    finish_time: 0,
    image_url: '',
  }),
  mjRow({
    id: 1,
    action: 'WHATEVER',
    code: 7,
    status: '',
    progress: '',
    finish_time: 0,
    image_url: '',
  }),
];

function setup(
  options: {
    user?: typeof rootUser;
    rows?: () => MidjourneyRow[];
    route?: string;
    notify?: boolean;
  } = {},
) {
  const rows = options.rows ?? (() => ROWS);
  const page = (call: RecordedCall) => {
    const all = rows();
    return ok(call.path === '/api/mj/self' ? all.map(({ channel_id: _, ...row }) => row) : all);
  };
  const api = mockApi({ 'GET /api/mj/': page, 'GET /api/mj/self': page });
  renderWithProviders(<MidjourneyPage />, {
    route: options.route ?? '/midjourney',
    user: options.user ?? ordinaryUser,
    status: { mj_notify_enabled: options.notify ?? false },
  });
  const lists = () =>
    api.calls.filter((call) => call.path === '/api/mj/' || call.path === '/api/mj/self');
  return { ...api, lists };
}

const row = (id: number) => screen.findByTestId(`mj-row-${id}`);

describe('drawing log page', { timeout: 20_000 }, () => {
  it('shows a user their own drawings with action, result, status, duration and refund', async () => {
    const { lists } = setup();
    const done = within(await row(4));
    expect(done.getByText('绘图')).toBeInTheDocument();
    expect(done.getByText('已提交')).toBeInTheDocument();
    expect(done.getByText('成功')).toBeInTheDocument();
    expect(done.getByText(formatDateTime(SUBMIT / 1000))).toBeInTheDocument();
    expect(done.getByText('30 秒').closest('[data-color]')).toHaveAttribute('data-color', 'green');
    expect(done.getByText('100%')).toBeInTheDocument();
    expect(done.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(done.queryByTestId('refund-tag')).not.toBeInTheDocument();

    const failed = within(await row(3));
    expect(failed.getByText('放大')).toBeInTheDocument();
    expect(failed.getByText('重复提交')).toBeInTheDocument();
    expect(failed.getByText('失败')).toBeInTheDocument();
    expect(failed.getByText('90 秒').closest('[data-color]')).toHaveAttribute('data-color', 'red');
    expect(failed.getByText('upstream said no')).toBeInTheDocument();
    expect(failed.getByTestId('refund-tag')).toHaveTextContent('已退还 $0.10');

    const running = within(await row(2));
    expect(running.getByText('换脸')).toBeInTheDocument();
    expect(running.getByText('等待中')).toBeInTheDocument();
    expect(running.getByText('执行中')).toBeInTheDocument();
    expect(running.getByText('—')).toBeInTheDocument();
    expect(running.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '45');

    const odd = within(await row(1));
    expect(odd.getByText('WHATEVER')).toBeInTheDocument();
    expect(odd.getByText('未知')).toBeInTheDocument();
    expect(odd.getByText('提交中')).toBeInTheDocument();

    const call = lists().at(-1)!;
    expect(call.path).toBe('/api/mj/self');
    expect(call.query.get('p')).toBe('0');
    expect(call.query.has('channel_id')).toBe(false);
    expect(screen.queryByRole('textbox', { name: '渠道 ID' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: '渠道' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('mj-notify-disabled')).not.toBeInTheDocument();
  });

  it('sends the time range in milliseconds, by default the last 30 days', async () => {
    const { lists } = setup();
    await row(4);
    const start = Number(lists().at(-1)?.query.get('start_timestamp'));
    expect(Math.abs(start - (Date.now() - 30 * 86_400_000))).toBeLessThan(10_000);
    expect(lists().at(-1)?.query.has('end_timestamp')).toBe(false);

    const from = new Date(2026, 0, 1).getTime();
    const to = new Date(2026, 0, 2).getTime();
    const startInput = screen.getByRole('textbox', { name: '起始时间' });
    await userEvent.clear(startInput);
    await userEvent.type(startInput, formatDateTime(from / 1000));
    const endInput = screen.getByRole('textbox', { name: '结束时间' });
    await userEvent.clear(endInput);
    await userEvent.type(endInput, formatDateTime(to / 1000));
    await userEvent.type(screen.getByRole('textbox', { name: '任务 ID' }), ' 1700 ');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(lists().at(-1)?.query.get('start_timestamp')).toBe(String(from)));
    expect(lists().at(-1)?.query.get('end_timestamp')).toBe(String(to));
    expect(lists().at(-1)?.query.get('mj_id')).toBe('1700');
  });

  it('gives admins every drawing, the channel column and filter, and the callback banner', async () => {
    const { lists } = setup({ user: rootUser });
    expect(within(await row(4)).getByText('3')).toBeInTheDocument();
    expect(lists().at(-1)?.path).toBe('/api/mj/');
    expect(screen.getByRole('columnheader', { name: '渠道' })).toBeInTheDocument();
    expect(screen.getByTestId('mj-notify-disabled')).toHaveTextContent('未开启 Midjourney 回调');

    await userEvent.type(screen.getByRole('textbox', { name: '渠道 ID' }), '3');
    await userEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(lists().at(-1)?.query.get('channel_id')).toBe('3'));
  });

  it('hides the banner when callbacks are on', async () => {
    setup({ user: rootUser, notify: true });
    await row(4);
    expect(screen.queryByTestId('mj-notify-disabled')).not.toBeInTheDocument();
  });

  it('pages with previous / next; next is off on a page of fewer than 10 rows', async () => {
    const full = Array.from({ length: 10 }, (_, index) => mjRow({ id: 20 - index }));
    let served = full;
    const { lists } = setup({ rows: () => served });
    await row(20);
    const next = screen.getByRole('button', { name: '下一页' });
    expect(next).toBeEnabled();
    expect(screen.getByRole('button', { name: '上一页' })).toBeDisabled();
    served = ROWS;
    await userEvent.click(next);
    await waitFor(() => expect(lists().at(-1)?.query.get('p')).toBe('1'));
    await row(4);
    await waitFor(() => expect(screen.getByRole('button', { name: '下一页' })).toBeDisabled());
    expect(screen.getByText('第 2 页')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '上一页' })).toBeEnabled();
  });

  it('opens the result image in a lightbox and the prompt in a dialog', async () => {
    setup();
    await userEvent.click(within(await row(4)).getByRole('button', { name: '查看图片' }));
    const lightbox = await screen.findByRole('dialog', { name: '图片预览' });
    expect(within(lightbox).getByRole('img')).toHaveAttribute(
      'src',
      'https://cdn.example.com/cat.png',
    );
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const prompt = ROWS[0]!.prompt;
    await userEvent.click(within(await row(4)).getByRole('button', { name: prompt }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt' });
    expect(within(dialog).getByText(prompt)).toBeInTheDocument();
  });

  it('refetches when the server pushes a task change', async () => {
    let progress = '10%';
    const { lists } = setup({
      rows: () => [mjRow({ id: 1, status: 'IN_PROGRESS', progress, finish_time: 0 })],
    });
    expect(within(await row(1)).getByText('10%')).toBeInTheDocument();
    const before = lists().length;
    progress = '80%';
    act(() => publishChange({ topic: 'tasks' }));
    await waitFor(() => expect(lists().length).toBeGreaterThan(before));
    expect(await within(await row(1)).findByText('80%')).toBeInTheDocument();
  });
});
