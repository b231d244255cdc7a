import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok } from '@/test/mock-api';
import { rootUser, renderWithProviders } from '@/test/render';
import { PriceTableCard } from './price-table-card';
import { card, mockOptions, optionPuts, saveCard } from './options-test-kit';

const setup = (enabled: string[] = ['gpt-4o']) => {
  const api = mockOptions(
    { ModelRatio: '{"gpt-4o":1.25}', CompletionRatio: '{"gpt-4o":4}', ModelPrice: '{}' },
    { 'GET /api/channel/models_enabled': () => ok(enabled) },
  );
  renderWithProviders(<PriceTableCard />, { user: rootUser });
  return api;
};

const putOf = (calls: Parameters<typeof optionPuts>[0], key: string) =>
  optionPuts(calls).find((body) => (body as { key: string }).key === key) as
    { key: string; value: string } | undefined;

describe('model price table', { timeout: 20_000 }, () => {
  it('edits a ratio in the table and saves the same option key', async () => {
    const { calls } = setup();
    const prices = await card('模型价格');
    const ratio = within(prices).getByLabelText('gpt-4o 的模型倍率');
    expect(ratio).toHaveValue('1.25');
    fireEvent.change(ratio, { target: { value: '2.5' } });
    await saveCard(prices);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(JSON.parse(putOf(calls, 'ModelRatio')!.value)).toEqual({ 'gpt-4o': 2.5 });
    expect(putOf(calls, 'CompletionRatio')).toBeUndefined();
  });

  it('lists served models without a price and adds them to fill in, refusing to save them empty', async () => {
    const { calls } = setup(['gpt-4o', 'my-own-model']);
    const prices = await card('模型价格');
    const unpriced = await within(prices).findByTestId('unpriced-models');
    expect(unpriced).toHaveTextContent('1 个模型已有渠道提供但未配置价格');
    expect(unpriced).toHaveTextContent('my-own-model');
    expect(unpriced).not.toHaveTextContent('gpt-4o');
    await userEvent.click(within(unpriced).getByRole('button', { name: '加入表格并填写倍率' }));
    expect(within(prices).queryByTestId('unpriced-models')).toBeNull();
    const added = within(prices).getByLabelText('my-own-model 的模型倍率');
    expect(added).toHaveValue('');
    await saveCard(prices);
    expect(await screen.findByText('以下模型尚未填写倍率或价格：my-own-model')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([]);
    fireEvent.change(added, { target: { value: '0.5' } });
    await saveCard(prices);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(JSON.parse(putOf(calls, 'ModelRatio')!.value)).toEqual({
      'gpt-4o': 1.25,
      'my-own-model': 0.5,
    });
  });

  it('keeps the JSON texts as the advanced view', async () => {
    setup();
    const prices = await card('模型价格');
    await userEvent.click(within(prices).getByText('JSON（高级）'));
    expect(within(prices).getByLabelText('模型倍率')).toHaveValue('{"gpt-4o":1.25}');
    expect(within(prices).getByLabelText('模型固定价格')).toHaveValue('{}');
  });
});
