import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { rootUser, renderWithProviders } from '@/test/render';
import { OperationTab } from './operation-tab';
import { card, mockOptions, optionPuts, saveCard } from './options-test-kit';

/** new-api's 模型相关设置 as stored by default (the dotted keys of setting/model_setting). */
const MODEL_OPTIONS = {
  'global.pass_through_request_enabled': 'false',
  'gemini.safety_settings': '{"default":"OFF"}',
  'gemini.version_settings': '{"default":"v1beta"}',
  'claude.model_headers_settings': '{}',
  'claude.default_max_tokens': '{"default":8192}',
  'claude.thinking_adapter_enabled': 'true',
  'claude.thinking_adapter_budget_tokens_percentage': '0.8',
};

const setup = () => {
  const api = mockOptions(MODEL_OPTIONS);
  renderWithProviders(<OperationTab />, { user: rootUser });
  return api;
};

const type = (region: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(region).getByLabelText(label), { target: { value } });

describe(
  'operation tab: model related settings (claude.*, gemini.*, global.*)',
  { timeout: 20_000 },
  () => {
    it('shows the stored values and saves the pass-through switch under its dotted key', async () => {
      const { calls } = setup();
      const global = await card('全局设置');
      const pass = within(global).getByRole('switch', { name: /^启用请求透传/ });
      expect(pass).not.toBeChecked();
      await userEvent.click(pass);
      await saveCard(global);
      expect(await screen.findByText('保存成功')).toBeInTheDocument();
      expect(optionPuts(calls)).toEqual([
        { key: 'global.pass_through_request_enabled', value: 'true' },
      ]);
    });

    it('Gemini: JSON editors refuse what is not a JSON object, send what is', async () => {
      const { calls } = setup();
      const gemini = await card('Gemini设置');
      expect(within(gemini).getByLabelText('Gemini版本设置')).toHaveValue('{"default":"v1beta"}');
      type(gemini, 'Gemini安全设置', '{"default": ');
      await saveCard(gemini);
      expect(await within(gemini).findByText('不是合法的 JSON 字符串')).toBeInTheDocument();
      expect(optionPuts(calls)).toEqual([]);
      type(gemini, 'Gemini安全设置', '{"default": "BLOCK_NONE"}');
      await saveCard(gemini);
      expect(await screen.findByText('保存成功')).toBeInTheDocument();
      expect(optionPuts(calls)).toEqual([
        { key: 'gemini.safety_settings', value: '{"default": "BLOCK_NONE"}' },
      ]);
    });

    it('Claude: headers, default max tokens, the thinking adapter and its percentage (at least 0.1)', async () => {
      const { calls } = setup();
      const claude = await card('Claude设置');
      expect(
        within(claude).getByRole('switch', { name: '启用Claude思考适配（-thinking后缀）' }),
      ).toBeChecked();
      type(claude, '思考适配 BudgetTokens 百分比', '0');
      await saveCard(claude);
      expect(await within(claude).findByText('不能小于 0.1')).toBeInTheDocument();
      expect(optionPuts(calls)).toEqual([]);
      type(claude, '思考适配 BudgetTokens 百分比', '0.5');
      type(claude, 'Claude请求头覆盖', '{"claude-x":{"anthropic-beta":["b1"]}}');
      type(claude, '缺省 MaxTokens', '{"default":4096}');
      await saveCard(claude);
      expect(await screen.findByText('保存成功')).toBeInTheDocument();
      expect(optionPuts(calls)).toEqual([
        { key: 'claude.model_headers_settings', value: '{"claude-x":{"anthropic-beta":["b1"]}}' },
        { key: 'claude.default_max_tokens', value: '{"default":4096}' },
        { key: 'claude.thinking_adapter_budget_tokens_percentage', value: '0.5' },
      ]);
    });
  },
);
