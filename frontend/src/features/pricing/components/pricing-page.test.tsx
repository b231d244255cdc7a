import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PricingResponse } from '@tollgate/contracts';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '@/lib/i18n';
import { stubClipboard } from '@/test/clipboard';
import { mockApi } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { PricingPage } from './pricing-page';

const PRICING: PricingResponse = {
  success: true,
  message: '',
  data: [
    {
      model_name: 'gpt-4o',
      quota_type: 0,
      model_ratio: 1.25,
      completion_ratio: 4,
      model_price: 0,
      enable_groups: ['default', 'vip'],
      owner_by: 'OpenAI',
      price_configured: true,
    },
    {
      model_name: 'gpt-4o-mini',
      quota_type: 0,
      model_ratio: 0.075,
      completion_ratio: 4,
      model_price: 0,
      enable_groups: ['default'],
      owner_by: 'OpenAI',
      price_configured: true,
    },
    {
      model_name: 'mj_imagine',
      quota_type: 1,
      model_ratio: 0,
      completion_ratio: 0,
      model_price: 0.1,
      enable_groups: ['vip'],
      owner_by: 'Midjourney',
      price_configured: true,
    },
    {
      model_name: 'my-own-model',
      quota_type: 0,
      model_ratio: 0,
      completion_ratio: 0,
      model_price: 0,
      enable_groups: ['default'],
      owner_by: '',
      price_configured: false,
    },
  ],
  group_ratio: { default: 1, vip: 0.5 },
  usable_group: { default: '默认分组', vip: 'vip分组' },
};

function setup(options: { signedIn?: boolean; status?: object } = {}) {
  const api = mockApi({ 'GET /api/pricing': () => PRICING });
  const view = renderWithProviders(<PricingPage />, {
    route: '/pricing',
    user: options.signedIn ? { ...ordinaryUser, group: 'vip' } : undefined,
    status: options.status ?? {},
  });
  return { ...api, ...view };
}

const row = (model: string) => screen.findByTestId(`pricing-row-${model}`);
const visibleModels = () =>
  screen
    .queryAllByTestId(/^pricing-row-/)
    .map((el) => el.getAttribute('data-testid')!.replace('pricing-row-', ''));

describe('pricing page', { timeout: 20_000 }, () => {
  it('anonymous: default group banner, the formula, dollar prices per 1M tokens and per call', async () => {
    const { calls } = setup();
    const gpt4o = await row('gpt-4o');
    expect(screen.getByTestId('pricing-group-banner')).toHaveTextContent(
      '您还未登录，显示的是默认分组的价格，分组倍率为 1。',
    );
    expect(screen.getByTestId('pricing-formula')).toHaveTextContent('模型倍率 × 2 × 分组倍率');
    expect(within(gpt4o).getByText('提示 $2.50 / 1M tokens')).toBeInTheDocument();
    expect(within(gpt4o).getByText('补全 $10.00 / 1M tokens')).toBeInTheDocument();
    expect(within(gpt4o).getByText('按量计费')).toBeInTheDocument();
    const mj = await row('mj_imagine');
    expect(within(mj).getByText('$0.10 / 次')).toBeInTheDocument();
    expect(within(mj).getByText('模型倍率：无')).toBeInTheDocument();
    expect(within(mj).getByText('按次计费')).toBeInTheDocument();
    // Not served in the default group: marked, not hidden (new-api's availability column).
    expect(mj).toHaveAttribute('data-available', 'false');
    expect(gpt4o).toHaveAttribute('data-available', 'true');
    expect(calls.some((call) => call.path === '/api/pricing')).toBe(true);
  });

  it('a model with no price set is said to have none: no tick, no ratio, no price', async () => {
    setup();
    const own = await row('my-own-model');
    expect(own).toHaveAttribute('data-priced', 'false');
    expect(await row('gpt-4o')).toHaveAttribute('data-priced', 'true');
    expect(within(own).getAllByText('未配置价格').length).toBeGreaterThanOrEqual(2);
    expect(within(own).queryByLabelText('所选分组可以使用该模型')).toBeNull();
    expect(within(own).getByLabelText('未配置价格')).toBeInTheDocument();
    expect(own).not.toHaveTextContent('$');
    expect(own).not.toHaveTextContent('37.5');
  });

  it('filters model names fuzzily, ignoring case', async () => {
    setup();
    await row('gpt-4o');
    const filter = screen.getByRole('textbox', { name: '模糊搜索模型名称' });
    await userEvent.type(filter, '4O-M');
    await vi.waitFor(() => expect(visibleModels()).toEqual(['gpt-4o-mini']));
    await userEvent.clear(filter);
    await userEvent.type(filter, 'IMAG');
    await vi.waitFor(() => expect(visibleModels()).toEqual(['mj_imagine']));
    await userEvent.clear(filter);
    await userEvent.type(filter, 'claude');
    await vi.waitFor(() => expect(visibleModels()).toEqual([]));
    expect(screen.getByText('暂无数据')).toBeInTheDocument();
  });

  it('switches groups: prices follow the group ratio and availability the group', async () => {
    setup();
    await row('gpt-4o');
    await userEvent.click(screen.getByRole('combobox', { name: '分组' }));
    await userEvent.click(await screen.findByRole('option', { name: 'vip（倍率 0.5）' }));
    const gpt4o = await row('gpt-4o');
    await vi.waitFor(() =>
      expect(within(gpt4o).getByText('提示 $1.25 / 1M tokens')).toBeInTheDocument(),
    );
    expect(within(gpt4o).getByText('补全 $5.00 / 1M tokens')).toBeInTheDocument();
    expect(within(gpt4o).getByText('分组倍率：0.5')).toBeInTheDocument();
    expect(within(await row('mj_imagine')).getByText('$0.05 / 次')).toBeInTheDocument();
    expect(await row('mj_imagine')).toHaveAttribute('data-available', 'true');
    expect(await row('gpt-4o-mini')).toHaveAttribute('data-available', 'false');
    expect(await screen.findByText('当前查看的分组为：vip，倍率为：0.5')).toBeInTheDocument();

    // A group tag switches back.
    await userEvent.click(within(gpt4o).getByRole('button', { name: '查看分组 default 的价格' }));
    await vi.waitFor(() =>
      expect(within(gpt4o).getByText('提示 $2.50 / 1M tokens')).toBeInTheDocument(),
    );
  });

  it('signed in: starts on the own group and says so', async () => {
    setup({ signedIn: true });
    const gpt4o = await row('gpt-4o');
    expect(screen.getByTestId('pricing-group-banner')).toHaveTextContent(
      '您的分组为 vip，分组倍率为 0.5。',
    );
    expect(within(gpt4o).getByText('提示 $1.25 / 1M tokens')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: '分组' })).toHaveValue('vip（倍率 0.5）');
  });

  it('shows quota instead of dollars when the site does not display currency', async () => {
    setup({ status: { display_in_currency: false, quota_per_unit: 500_000 } });
    const gpt4o = await row('gpt-4o');
    expect(within(gpt4o).getByText('提示 1,250,000 / 1M tokens')).toBeInTheDocument();
    expect(within(gpt4o).getByText('补全 5,000,000 / 1M tokens')).toBeInTheDocument();
    expect(within(await row('mj_imagine')).getByText('50,000 / 次')).toBeInTheDocument();
  });

  it('copies the selected model names comma-joined; nothing selected, nothing to copy', async () => {
    const { written } = stubClipboard();
    setup();
    await row('gpt-4o');
    const copy = screen.getByRole('button', { name: '复制所选模型' });
    expect(copy).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: '选择模型 mj_imagine' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择模型 gpt-4o' }));
    await userEvent.click(copy);
    await vi.waitFor(() => expect(written).toEqual(['gpt-4o,mj_imagine']));
    expect(await screen.findByText('已复制到剪贴板！')).toBeInTheDocument();
  });

  it('shows the names to copy by hand when the clipboard refuses', async () => {
    vi.stubGlobal('isSecureContext', false);
    document.execCommand = vi.fn(() => false);
    setup();
    await userEvent.click(
      within(await row('gpt-4o-mini')).getByRole('button', {
        name: '复制模型名称 gpt-4o-mini',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('无法复制到剪贴板，请手动复制')).toBeInTheDocument();
    expect(within(dialog).getByText('gpt-4o-mini')).toBeInTheDocument();
  });

  it('speaks English', async () => {
    await i18n.changeLanguage('en');
    setup();
    const gpt4o = await row('gpt-4o');
    expect(within(gpt4o).getByText('Prompt $2.50 / 1M tokens')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy selected models' })).toBeInTheDocument();
    expect(screen.getByTestId('pricing-group-banner')).toHaveTextContent(
      'You are not signed in: prices are those of the default group, ratio 1.',
    );
  });
});
