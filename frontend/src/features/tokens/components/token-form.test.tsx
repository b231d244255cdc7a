import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '@/utils/date-time';
import { tokenFixture } from '@/test/fixtures';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { TokenForm } from './token-form';

function setup(
  options: {
    token?: Parameters<typeof TokenForm>[0]['token'];
    groups?: Record<string, { ratio: number; desc: string }>;
  } = {},
) {
  const onDone = vi.fn();
  const api = mockApi({
    'POST /api/token/': (call) => ok({ count: (call.body as { count: number }).count, ids: [7] }),
    'PUT /api/token/': () => ok(tokenFixture()),
    'GET /api/user/models': () => ok(['gpt-4o', 'gpt-4o-mini']),
    'GET /api/user/self/groups': () =>
      ok(
        options.groups ?? {
          default: { ratio: 1, desc: '默认分组' },
          vip: { ratio: 2, desc: 'VIP' },
        },
      ),
  });
  renderWithProviders(<TokenForm token={options.token} onDone={onDone} />, {
    user: ordinaryUser,
  });
  return { ...api, onDone };
}

const sent = (calls: RecordedCall[], method: string) =>
  calls.find((call) => call.method === method && call.path === '/api/token/')?.body as
    Record<string, unknown> | undefined;

const submit = () => userEvent.click(screen.getByRole('button', { name: '提交' }));
const field = (label: string) => screen.getByRole('textbox', { name: label });

describe('token form', { timeout: 20_000 }, () => {
  it('requires a name on create: the fault is shown on the field, which gets the focus', async () => {
    const { calls } = setup();
    await submit();
    expect(await screen.findByText('请输入令牌名称！')).toBeInTheDocument();
    expect(field('名称')).toHaveAttribute('aria-invalid', 'true');
    expect(field('名称')).toHaveAccessibleDescription('请输入令牌名称！');
    expect(field('名称')).toHaveFocus();
    expect(sent(calls, 'POST')).toBeUndefined();
    // Typing clears it.
    await userEvent.type(field('名称'), 'ci');
    expect(field('名称')).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses an expiry that is not a date: 过期时间格式错误！', async () => {
    const { calls } = setup();
    await userEvent.type(field('名称'), 'ci');
    await userEvent.type(field('过期时间'), '2030-02-31 10:00:00');
    await submit();
    expect(await screen.findByText('过期时间格式错误！')).toBeInTheDocument();
    expect(sent(calls, 'POST')).toBeUndefined();
  });

  it('creates with the defaults: never expires, $1 of quota, one token', async () => {
    const { calls, onDone } = setup();
    expect(field('过期时间')).toHaveAccessibleDescription('永不过期');
    expect(screen.getByText('等价金额：$1.00')).toBeInTheDocument();
    expect(
      screen.getByText(
        '注意，令牌的额度仅用于限制令牌本身的最大额度使用量，实际的使用受到账户的剩余额度限制。',
      ),
    ).toBeInTheDocument();
    await userEvent.type(field('名称'), ' ci ');
    await submit();
    expect(
      await screen.findByText('令牌创建成功，请在列表页面点击复制获取令牌！'),
    ).toBeInTheDocument();
    expect(sent(calls, 'POST')).toEqual({
      name: 'ci',
      expired_time: -1,
      remain_quota: 500000,
      unlimited_quota: false,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: '',
      rate_limit_rpm: 0,
      rate_limit_tpm: 0,
      rate_limit_concurrency: 0,
      period_quota: 0,
      period: '',
      model_fallback: true,
      count: 1,
    });
    expect(onDone).toHaveBeenCalled();
  });

  it('fills the expiry from a shortcut and back to never', async () => {
    setup();
    const expiry = field('过期时间');
    const before = Math.floor(Date.now() / 1000);
    await userEvent.click(screen.getByRole('button', { name: '一天' }));
    const value = (expiry as HTMLInputElement).value;
    expect([formatDateTime(before + 86_400), formatDateTime(before + 86_401)]).toContain(value);
    await userEvent.click(screen.getByRole('button', { name: '一个月' }));
    expect((expiry as HTMLInputElement).value.slice(0, 10)).toBe(
      formatDateTime(before + 30 * 86_400).slice(0, 10),
    );
    await userEvent.click(screen.getByRole('button', { name: '永不过期' }));
    expect(expiry).toHaveValue('');
  });

  it('sets the quota from dollar presets and disables it when unlimited', async () => {
    const { calls } = setup();
    await userEvent.click(screen.getByRole('button', { name: '$50' }));
    expect(field('额度')).toHaveValue('25000000');
    expect(screen.getByText('等价金额：$50.00')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: '设为无限额度' }));
    expect(field('额度')).toBeDisabled();
    expect(screen.getByRole('button', { name: '$10' })).toBeDisabled();
    await userEvent.type(field('名称'), 'wide');
    await submit();
    await vi.waitFor(() => expect(sent(calls, 'POST')?.unlimited_quota).toBe(true));
  });

  it('batch-creates from a count preset and says how many were made', async () => {
    const { calls } = setup();
    await userEvent.type(field('名称'), 'batch');
    await userEvent.click(screen.getByRole('button', { name: '20' }));
    expect(field('新建数量')).toHaveValue('20');
    await submit();
    expect(
      await screen.findByText('成功创建 20 个令牌，请在列表页面点击复制获取令牌！'),
    ).toBeInTheDocument();
    expect(sent(calls, 'POST')?.count).toBe(20);
  });

  it('enables the model selector only with model limits on, and sends a comma list', async () => {
    const { calls } = setup();
    const models = screen.getByRole('combobox', { name: '模型限制' });
    expect(models).toBeDisabled();
    await userEvent.click(
      screen.getByRole('switch', { name: '启用模型限制（非必要，不建议启用）' }),
    );
    expect(models).toBeEnabled();
    await userEvent.click(models);
    await userEvent.click(await screen.findByRole('option', { name: 'gpt-4o' }));
    await userEvent.click(await screen.findByRole('option', { name: 'gpt-4o-mini' }));
    await userEvent.type(field('名称'), 'limited');
    await userEvent.click(field('IP 白名单'));
    await userEvent.paste('10.0.0.1\n\n 192.168.0.0/16 ');
    await submit();
    await vi.waitFor(() => expect(sent(calls, 'POST')).toBeDefined());
    expect(sent(calls, 'POST')).toMatchObject({
      model_limits_enabled: true,
      model_limits: 'gpt-4o,gpt-4o-mini',
      allow_ips: '10.0.0.1\n192.168.0.0/16',
    });
  });

  it('offers the groups of /api/user/self/groups by code and label (desc)', async () => {
    setup();
    const picker = screen.getByRole('combobox', { name: '令牌分组' });
    await vi.waitFor(() => expect(picker).toBeEnabled());
    await userEvent.click(picker);
    expect(await screen.findByRole('option', { name: 'default（默认分组）' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'vip（VIP）' })).toBeInTheDocument();
  });

  it('picks a group, or disables the selector with the note when there is none', async () => {
    setup({ groups: {} });
    expect(await screen.findByText('管理员未设置用户可选分组')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '令牌分组' })).toBeDisabled();
  });

  it('sends the per-token rate limits, 0 meaning none', async () => {
    const { calls } = setup();
    await userEvent.type(field('名称'), 'limits');
    const rpm = field('每分钟请求数（RPM）');
    await userEvent.clear(rpm);
    await userEvent.type(rpm, '60');
    const concurrency = field('最大并发请求数');
    await userEvent.clear(concurrency);
    await userEvent.type(concurrency, '2');
    await submit();
    await vi.waitFor(() => expect(sent(calls, 'POST')).toBeDefined());
    expect(sent(calls, 'POST')).toMatchObject({
      rate_limit_rpm: 60,
      rate_limit_tpm: 0,
      rate_limit_concurrency: 2,
    });
  });

  it('edits a token: its values, no count, a full PUT with the id', async () => {
    const expires = Math.floor(Date.now() / 1000) + 7200;
    const { calls } = setup({
      token: tokenFixture({
        id: 9,
        name: 'phone',
        expired_time: expires,
        remain_quota: 1_000_000,
        model_limits_enabled: true,
        model_limits: 'gpt-4o',
        group: 'vip',
        rate_limit_tpm: 1000,
        model_fallback: false,
      }),
    });
    expect(field('名称')).toHaveValue('phone');
    expect(field('过期时间')).toHaveValue(formatDateTime(expires));
    expect(screen.queryByRole('textbox', { name: '新建数量' })).not.toBeInTheDocument();
    await userEvent.clear(field('名称'));
    await userEvent.type(field('名称'), 'tablet');
    await submit();
    expect(await screen.findByText('令牌更新成功！')).toBeInTheDocument();
    expect(sent(calls, 'PUT')).toEqual({
      id: 9,
      name: 'tablet',
      expired_time: expires,
      remain_quota: 1_000_000,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: 'gpt-4o',
      allow_ips: '',
      group: 'vip',
      rate_limit_rpm: 0,
      rate_limit_tpm: 1000,
      rate_limit_concurrency: 0,
      period_quota: 0,
      period: '',
      model_fallback: false,
    });
  });

  it('shows a token charged past its quota as below zero and asks for a new quota', async () => {
    const { calls } = setup({ token: tokenFixture({ id: 9, remain_quota: -5_000 }) });
    // Not 5000: the sign of the debt is kept.
    expect(field('额度')).toHaveValue('-5000');
    expect(screen.getByText('等价金额：-$0.01')).toBeInTheDocument();
    await submit();
    expect(await screen.findByText('额度必须是非负整数！')).toBeInTheDocument();
    expect(sent(calls, 'PUT')).toBeUndefined();

    await userEvent.clear(field('额度'));
    await userEvent.type(field('额度'), '250000');
    await submit();
    await vi.waitFor(() => expect(sent(calls, 'PUT')).toMatchObject({ remain_quota: 250_000 }));
  });

  it('sets a budget: a period and a quota per period, shown in money like the quota', async () => {
    const { calls } = setup();
    await userEvent.type(field('名称'), 'budgeted');
    const quota = field('每周期额度');
    expect(quota).toBeDisabled();
    await userEvent.click(screen.getByRole('combobox', { name: '周期预算' }));
    await userEvent.click(await screen.findByRole('option', { name: '每日' }));
    expect(quota).toBeEnabled();
    await userEvent.clear(quota);
    await userEvent.type(quota, '1000000');
    expect(screen.getByText('等价金额：$2.00')).toBeInTheDocument();
    await submit();
    await vi.waitFor(() => expect(sent(calls, 'POST')).toBeDefined());
    expect(sent(calls, 'POST')).toMatchObject({ period_quota: 1_000_000, period: 'day' });
  });

  it('refuses a period without a quota; editing shows the budget and can remove it', async () => {
    setup();
    await userEvent.type(field('名称'), 'half');
    await userEvent.click(screen.getByRole('combobox', { name: '周期预算' }));
    await userEvent.click(await screen.findByRole('option', { name: '每周' }));
    await submit();
    expect(await screen.findByText('周期额度必须是大于 0 的整数！')).toBeInTheDocument();
  });

  it('edits a token with a budget: its values, removed with the period 不限', async () => {
    const { calls } = setup({
      token: tokenFixture({ id: 4, name: 'capped', period_quota: 5000, period: 'month' }),
    });
    expect(field('每周期额度')).toHaveValue('5000');
    expect(screen.getByRole('combobox', { name: '周期预算' })).toHaveValue('每月');
    await userEvent.click(screen.getByRole('combobox', { name: '周期预算' }));
    await userEvent.click(await screen.findByRole('option', { name: '不限' }));
    await submit();
    await vi.waitFor(() => expect(sent(calls, 'PUT')).toBeDefined());
    expect(sent(calls, 'PUT')).toMatchObject({ id: 4, period_quota: 0, period: '' });
  });

  it('refuses an expiry in the past', async () => {
    setup();
    await userEvent.type(field('名称'), 'late');
    await userEvent.type(field('过期时间'), '2020-01-01 00:00:00');
    await submit();
    expect(await screen.findByText('过期时间不能早于当前时间！')).toBeInTheDocument();
    expect(
      within(document.body).queryByText('令牌创建成功，请在列表页面点击复制获取令牌！'),
    ).toBeNull();
  });
});
