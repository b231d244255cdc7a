import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '@/test/mock-api';
import { rootUser, renderWithProviders } from '@/test/render';
import { oneMonthAgo, toDateTimeLocal } from '../../utils/option-form';
import { OperationTab } from './operation-tab';
import { card, mockOptions, optionPuts, saveCard } from './options-test-kit';

const setup = (...args: Parameters<typeof mockOptions>) => {
  const api = mockOptions(...args);
  renderWithProviders(<OperationTab />, { user: rootUser });
  return api;
};

const type = (region: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(region).getByLabelText(label), { target: { value } });

describe('operation tab', { timeout: 20_000 }, () => {
  it('refuses invalid ratio JSON (不是合法的 JSON 字符串, 请检查输入) and sends valid edits', async () => {
    const { calls } = setup();
    const ratio = await card('倍率设置');
    type(ratio, '分组倍率', '{"default": 1, "vip": }');
    await saveCard(ratio);
    expect(await within(ratio).findByText('不是合法的 JSON 字符串')).toBeInTheDocument();
    expect(screen.getByText('请检查输入')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([]);

    type(ratio, '分组倍率', '{"default": 1, "vip": 2}');
    await saveCard(ratio);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([{ key: 'GroupRatio', value: '{"default": 1, "vip": 2}' }]);
  });

  it('Chats must be a JSON list', async () => {
    const { calls } = setup();
    const chats = await card('令牌聊天设置');
    type(chats, '聊天配置', '{"Chat": "https://chat.example.com"}');
    await saveCard(chats);
    expect(await within(chats).findByText('不是合法的 JSON 字符串')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([]);
  });

  it('resets the model ratios after confirmation', async () => {
    const { calls } = setup({}, { 'POST /api/option/rest_model_ratio': () => ok() });
    await userEvent.click(
      within(await card('模型价格')).getByRole('button', { name: '重置模型倍率' }),
    );
    await userEvent.click(await screen.findByRole('button', { name: '确定' }));
    expect(await screen.findByText('模型倍率已重置')).toBeInTheDocument();
    expect(
      calls.some((c) => c.method === 'POST' && c.path === '/api/option/rest_model_ratio'),
    ).toBe(true);
  });

  it('dashboard: interval at least 1, granularity hour/day/week only', async () => {
    const { calls } = setup();
    const dashboard = await card('数据看板设置');
    const interval = within(dashboard).getByLabelText('数据看板更新间隔（分钟）');
    await userEvent.clear(interval);
    await userEvent.type(interval, '0');
    await saveCard(dashboard);
    expect(await within(dashboard).findByText('不能小于 1')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([]);

    await userEvent.click(
      within(dashboard).getByRole('combobox', { name: '数据看板默认时间粒度' }),
    );
    const offered = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(offered).toEqual(['小时', '天', '周']);
  });

  it('log clearing defaults to one month ago, needs a time, and sends it in seconds', async () => {
    const { calls } = setup({}, { 'DELETE /api/log/': () => ok(12) });
    const log = await card('日志设置');
    const time = within(log).getByLabelText('清除此时间之前的日志');
    // Same minute as the component's default (a minute boundary may pass in between).
    expect([
      toDateTimeLocal(oneMonthAgo(new Date(Date.now() - 60_000))),
      toDateTimeLocal(oneMonthAgo(new Date())),
    ]).toContain((time as HTMLInputElement).value);

    fireEvent.change(time, { target: { value: '' } });
    await userEvent.click(within(log).getByRole('button', { name: '清除历史日志' }));
    expect(await screen.findByText('请选择日志记录时间')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.change(time, { target: { value: '2024-05-01T08:30' } });
    await userEvent.click(within(log).getByRole('button', { name: '清除历史日志' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '清除历史日志' }));
    expect(await screen.findByText('已清理 12 条日志')).toBeInTheDocument();
    const sent = calls.find((c) => c.method === 'DELETE' && c.path === '/api/log/');
    expect(sent?.query.get('target_timestamp')).toBe(
      String(new Date('2024-05-01T08:30').getTime() / 1000),
    );
  });

  it('general: the docs link (a dotted key) and demo-site mode; sensitive: stop and queue length', async () => {
    const { calls } = setup({
      'general_setting.docs_link': '',
      DemoSiteEnabled: 'false',
      StopOnSensitiveEnabled: 'true',
      StreamCacheQueueLength: '0',
    });
    const general = await card('通用设置');
    type(general, '文档地址', 'https://docs.example.com/');
    await userEvent.click(within(general).getByRole('switch', { name: '演示站点模式' }));
    await saveCard(general);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    const sensitive = await card('屏蔽词过滤设置');
    expect(
      within(sensitive).getByRole('switch', { name: '在检测到屏蔽词时，立刻停止生成' }),
    ).toBeChecked();
    type(sensitive, '流模式下缓存队列长度', '3');
    await saveCard(sensitive);
    await screen.findAllByText('保存成功');
    expect(optionPuts(calls)).toEqual([
      { key: 'general_setting.docs_link', value: 'https://docs.example.com' },
      { key: 'DemoSiteEnabled', value: 'true' },
      { key: 'StreamCacheQueueLength', value: '3' },
    ]);
  });

  it('monitoring: model fallbacks as JSON and their two switches', async () => {
    const { calls } = setup({
      ModelFallbacks: '{}',
      ModelFallbackOnContextWindow: 'false',
      ModelFallbackOnContentFilter: 'false',
    });
    const monitoring = await card('监控设置');
    type(monitoring, '模型降级（备用模型）', '{"gpt-4o": ["gpt-4o-mini"]}');
    await userEvent.click(
      within(monitoring).getByRole('switch', { name: '提示超出上下文窗口时也切换备用模型' }),
    );
    await saveCard(monitoring);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([
      { key: 'ModelFallbacks', value: '{"gpt-4o": ["gpt-4o-mini"]}' },
      { key: 'ModelFallbackOnContextWindow', value: 'true' },
    ]);
  });

  it('reports 日志清理失败 when the server refuses', async () => {
    setup({}, { 'DELETE /api/log/': () => fail('nope') });
    const log = await card('日志设置');
    await userEvent.click(within(log).getByRole('button', { name: '清除历史日志' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '清除历史日志' }));
    expect(await screen.findByText('日志清理失败')).toBeInTheDocument();
  });
});
