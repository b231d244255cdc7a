import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { channelFixture } from '@/test/fixtures';
import { fail, mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { ChannelsPage } from './channels-page';

const stored = channelFixture({
  id: 5,
  name: 'azure-east',
  type: 3,
  base_url: 'https://east.openai.azure.com',
  other: '2024-02-01',
  models: 'gpt-4o,gpt-35-turbo',
  group: 'default,vip',
  priority: 3,
  weight: 2,
  model_mapping: '{"gpt-3.5-turbo":"gpt-35-turbo"}',
  auto_ban: 0,
});

function setup(
  route: string,
  overrides: Record<string, (call: RecordedCall) => unknown> = {},
  user = rootUser,
) {
  const api = mockApi({
    'GET /api/channel/': () => ok([stored]),
    'GET /api/channel/5': () => ok(stored),
    'GET /api/group/': () => ok(['default', 'vip']),
    'GET /api/channel/models': () =>
      ok([
        { id: 'gpt-4o', object: 'model', owned_by: 'openai' },
        { id: 'claude-3-opus-20240229', object: 'model', owned_by: 'anthropic' },
      ]),
    'POST /api/channel/': () => ok(),
    'PUT /api/channel/': () => ok(),
    'POST /api/channel/fetch_models': () => ok(['mock-gpt-a', 'mock-gpt-b']),
    'GET /api/channel/fetch_models/5': () => ok([{ id: 'gpt-4o' }, { id: 'o3' }]),
    ...overrides,
  });
  const view = renderWithProviders(<ChannelsPage />, {
    route,
    path: '/channel/*',
    user,
  });
  return { ...api, ...view };
}

const admin = { ...rootUser, id: 9, username: 'admin', role: 10 };
const panel = () => screen.findByRole('dialog');
/** Pastes instead of typing key by key: the long form re-renders on every keystroke. */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}
const submit = async () =>
  userEvent.click(within(await panel()).getByRole('button', { name: '提交' }));
/** The models MultiSelect posts its values through one hidden input, comma-joined. */
const modelValues = (dialog: HTMLElement) =>
  (dialog.querySelector<HTMLInputElement>('input[name="models"]')?.value ?? '')
    .split(',')
    .filter(Boolean);
const bodyOf = (calls: RecordedCall[], method: string) =>
  calls.find((call) => call.method === method && call.path === '/api/channel/')?.body;

describe('add channel panel', () => {
  it('opens from the add button and keeps the list state in the URL', async () => {
    const { router } = setup('/channel?p=2');
    await userEvent.click(await screen.findByRole('button', { name: '添加渠道' }));
    expect(await panel()).toHaveTextContent('创建新的渠道');
    expect(router.state.location.pathname).toBe('/channel/add');
    expect(router.state.location.search).toBe('?p=2');
    await userEvent.click(within(await panel()).getByRole('button', { name: '取消' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/channel'));
  });

  it('asks for name and key, then at least one model, then valid mapping JSON, on each field', async () => {
    const { calls } = setup('/channel/add');
    const dialog = await panel();
    const name = within(dialog).getByRole('textbox', { name: '名称' });
    await submit();
    expect(await screen.findByText('请填写渠道名称和渠道密钥！')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();

    await fill(name, 'main');
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
    await submit();
    const key = within(dialog).getByRole('textbox', { name: '密钥' });
    expect(await within(dialog).findByText('请填写渠道名称和渠道密钥！')).toBeInTheDocument();
    expect(key).toHaveAttribute('aria-invalid', 'true');

    await fill(key, 'sk-one');
    await submit();
    expect(await screen.findByText('请至少选择一个模型！')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: '填入相关模型' }));
    const mapping = within(dialog).getByRole('textbox', { name: '模型重定向' });
    await fill(mapping, '{not json');
    await submit();
    expect(await screen.findByText('模型映射必须是合法的 JSON 格式！')).toBeInTheDocument();
    expect(mapping).toHaveAttribute('aria-invalid', 'true');
    expect(bodyOf(calls, 'POST')).toBeUndefined();
  });

  it('creates a channel from several keys with cleaned-up fields', async () => {
    const { calls, router } = setup('/channel/add');
    const dialog = await panel();
    await fill(within(dialog).getByRole('textbox', { name: '名称' }), ' main ');
    await fill(
      within(dialog).getByRole('textbox', { name: '代理地址' }),
      'https://mock.local/v1//',
    );
    await fill(within(dialog).getByRole('textbox', { name: '密钥' }), 'sk-one\nsk-two');
    await fill(within(dialog).getByRole('textbox', { name: '自定义模型名称' }), 'mock-a, mock-b');
    await userEvent.click(within(dialog).getByRole('button', { name: '填入' }));
    await userEvent.click(within(dialog).getAllByRole('button', { name: '填入模板' })[0]!);
    const priority = within(dialog).getByRole('textbox', { name: '优先级' });
    await userEvent.clear(priority);
    await userEvent.type(priority, '5');
    const weight = within(dialog).getByRole('textbox', { name: '权重' });
    await userEvent.clear(weight);
    await submit();

    expect(await screen.findByText('渠道创建成功！')).toBeInTheDocument();
    expect(bodyOf(calls, 'POST')).toEqual({
      type: 1,
      name: 'main',
      key: 'sk-one\nsk-two',
      base_url: 'https://mock.local/v1',
      other: '',
      openai_organization: '',
      max_input_tokens: 0,
      models: 'mock-a,mock-b',
      group: 'default',
      model_mapping: '{\n  "gpt-3.5-turbo-0301": "gpt-3.5-turbo",\n  "gpt-4-0314": "gpt-4"\n}',
      status_code_mapping: '',
      param_override: '',
      setting: '',
      test_model: '',
      tag: '',
      auto_ban: 1,
      priority: 5,
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/channel'));
  });

  it('refuses custom models that already exist', async () => {
    setup('/channel/add');
    const dialog = await panel();
    const custom = within(dialog).getByRole('textbox', { name: '自定义模型名称' });
    await fill(custom, 'mock-a');
    await userEvent.click(within(dialog).getByRole('button', { name: '填入' }));
    expect(modelValues(dialog)).toEqual(['mock-a']);
    await fill(custom, 'mock-b,mock-a');
    await userEvent.click(within(dialog).getByRole('button', { name: '填入' }));
    expect(await screen.findByText('某些模型已存在！')).toBeInTheDocument();
    expect(modelValues(dialog)).toEqual(['mock-a']);
  });

  it('fetches models only for OpenAI-format types and only with a key', async () => {
    const { calls } = setup('/channel/add');
    const dialog = await panel();
    await userEvent.click(within(dialog).getByRole('button', { name: '获取模型列表' }));
    expect(await screen.findByText('请填写密钥')).toBeInTheDocument();

    await fill(within(dialog).getByRole('textbox', { name: '密钥' }), 'sk-one\nsk-two');
    await fill(within(dialog).getByRole('textbox', { name: '代理地址' }), 'http://mock');
    await userEvent.click(within(dialog).getByRole('button', { name: '获取模型列表' }));
    expect(await screen.findByText('已获取 2 个模型')).toBeInTheDocument();
    expect(modelValues(dialog)).toEqual(['mock-gpt-a', 'mock-gpt-b']);
    expect(calls.find((call) => call.path === '/api/channel/fetch_models')?.body).toEqual({
      type: 1,
      key: 'sk-one',
      base_url: 'http://mock',
    });

    await userEvent.click(within(dialog).getByRole('combobox', { name: '类型' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Anthropic Claude' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '获取模型列表' }));
    expect(await screen.findByText('仅支持 OpenAI 接口格式')).toBeInTheDocument();
  });

  it('finds a channel type by typing part of its name, listed without its number', async () => {
    setup('/channel/add');
    const dialog = await panel();
    const type = within(dialog).getByRole('combobox', { name: '类型' });
    await userEvent.clear(type);
    await userEvent.type(type, 'claude');
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Anthropic Claude', 'AWS Claude']);
    await userEvent.click(screen.getByRole('option', { name: 'Anthropic Claude' }));
    expect(type).toHaveValue('Anthropic Claude');
  });

  it('says when the provider model list cannot be fetched', async () => {
    setup('/channel/add', { 'POST /api/channel/fetch_models': () => fail('上游返回 401') });
    const dialog = await panel();
    await fill(within(dialog).getByRole('textbox', { name: '密钥' }), 'sk-bad');
    await userEvent.click(within(dialog).getByRole('button', { name: '获取模型列表' }));
    expect(await screen.findByText('获取模型列表失败：上游返回 401')).toBeInTheDocument();
  });

  it('fills type defaults and key hints: Azure version, Spark version, key formats', async () => {
    setup('/channel/add');
    const dialog = await panel();
    const chooseType = async (name: string) => {
      await userEvent.click(within(dialog).getByRole('combobox', { name: '类型' }));
      await userEvent.click(await screen.findByRole('option', { name }));
    };
    await chooseType('Azure OpenAI');
    expect(within(dialog).getByRole('textbox', { name: '默认 API 版本' })).toHaveValue(
      '2023-06-01-preview',
    );
    expect(
      within(dialog).getByRole('textbox', { name: 'AZURE_OPENAI_ENDPOINT' }),
    ).toBeInTheDocument();
    await chooseType('Xunfei Spark');
    expect(within(dialog).getByRole('textbox', { name: '模型版本' })).toHaveValue('v2.1');
    expect(within(dialog).getByText(/密钥格式：APPID\|APISecret\|APIKey/)).toBeInTheDocument();
    await chooseType('Baidu');
    expect(within(dialog).getByText(/密钥格式：APIKey\|SecretKey/)).toBeInTheDocument();

    await fill(within(dialog).getByRole('textbox', { name: '名称' }), 'baidu');
    await fill(within(dialog).getByRole('textbox', { name: '密钥' }), 'only-one-part');
    await submit();
    expect(await screen.findByText('密钥格式不正确，应为：APIKey|SecretKey')).toBeInTheDocument();

    await chooseType('Vertex AI');
    expect(within(dialog).getByText(/整段作为一个密钥/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getAllByRole('button', { name: '填入模板' })[0]!);
    expect(within(dialog).getByRole('textbox', { name: '部署地区' })).toHaveValue(
      '{\n  "default": "us-central1"\n}',
    );
  });

  it('fills the status code mapping template', async () => {
    setup('/channel/add');
    const dialog = await panel();
    await userEvent.click(within(dialog).getAllByRole('button', { name: '填入模板' })[1]!);
    expect(within(dialog).getByRole('textbox', { name: '状态码复写' })).toHaveValue(
      '{\n  "400": "500"\n}',
    );
  });
});

describe('edit channel panel', () => {
  it('loads the stored channel, keeps the key when left empty, and says so', async () => {
    const { calls, router } = setup('/channel');
    await userEvent.click(await screen.findByRole('button', { name: '编辑' }));
    const dialog = await panel();
    expect(dialog).toHaveTextContent('更新渠道信息');
    expect(router.state.location.pathname).toBe('/channel/edit/5');
    expect(await within(dialog).findByRole('textbox', { name: '名称' })).toHaveValue('azure-east');
    expect(within(dialog).getByRole('textbox', { name: '默认 API 版本' })).toHaveValue(
      '2024-02-01',
    );
    expect(modelValues(dialog)).toEqual(['gpt-4o', 'gpt-35-turbo']);

    await submit();
    expect(await screen.findByText('渠道更新成功！')).toBeInTheDocument();
    const body = bodyOf(calls, 'PUT') as Record<string, unknown>;
    expect(body).toMatchObject({
      id: 5,
      type: 3,
      name: 'azure-east',
      base_url: 'https://east.openai.azure.com',
      other: '2024-02-01',
      models: 'gpt-4o,gpt-35-turbo',
      group: 'default,vip',
      priority: 3,
      weight: 2,
      auto_ban: 0,
    });
    expect(body).not.toHaveProperty('key');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/channel'));
  });

  it('tells an administrator other than root that retargeting a channel needs its key again', async () => {
    const rekey = '修改类型、代理地址或其他参数时需重新填写密钥';
    const keyField = async () => {
      const dialog = await panel();
      await within(dialog).findByDisplayValue('azure-east');
      return within(dialog).getByRole('textbox', { name: '密钥' });
    };
    setup('/channel/edit/5', {}, admin);
    const field = await keyField();
    expect(field).toHaveAttribute('placeholder', '留空则保持原密钥不变');
    expect(field).toHaveAccessibleDescription(rekey);
    cleanup();

    // Root may keep the stored key: no such hint.
    setup('/channel/edit/5');
    expect(await keyField()).not.toHaveAccessibleDescription(expect.stringContaining(rekey));
    cleanup();

    // A new channel has no stored key to keep.
    setup('/channel/add', {}, admin);
    const key = within(await panel()).getByRole('textbox', { name: '密钥' });
    expect(key).toHaveAccessibleDescription('一行一个密钥，每个密钥创建一个渠道');
  });

  it('fetches the model list of a saved channel with its stored key', async () => {
    const { calls } = setup('/channel/edit/5', {
      'GET /api/channel/5': () => ok({ ...stored, type: 1, other: '' }),
    });
    const dialog = await panel();
    await within(dialog).findByDisplayValue('azure-east');
    await userEvent.click(within(dialog).getByRole('button', { name: '获取模型列表' }));
    expect(await screen.findByText('已获取 2 个模型')).toBeInTheDocument();
    expect(modelValues(dialog)).toEqual(['gpt-4o', 'o3']);
    expect(calls.some((call) => call.path === '/api/channel/fetch_models/5')).toBe(true);
  });

  it("opens and saves new-api's VolcEngine (45) and BaiduV2 (46) channels as known types", async () => {
    const volc = {
      ...stored,
      id: 5,
      name: 'doubao',
      type: 45,
      base_url: '',
      other: '',
      models: 'doubao-pro-32k',
      group: 'default',
    };
    const { calls } = setup('/channel/edit/5', { 'GET /api/channel/5': () => ok(volc) });
    const dialog = await panel();
    await within(dialog).findByDisplayValue('doubao');
    const type = within(dialog).getByRole('combobox', { name: '类型' });
    expect(type).toHaveValue('VolcEngine Ark (Doubao)');
    expect(within(dialog).getByRole('textbox', { name: '代理地址' })).toHaveAttribute(
      'placeholder',
      '可选，默认为 https://ark.cn-beijing.volces.com，末尾的 / 会被去掉',
    );
    expect(within(dialog).queryByText(/未知类型/)).toBeNull();
    // BaiduV2 is offered in the same list, with its own default address.
    await userEvent.click(type);
    await userEvent.click(await screen.findByRole('option', { name: 'Baidu Qianfan V2' }));
    expect(within(dialog).getByRole('textbox', { name: '代理地址' })).toHaveAttribute(
      'placeholder',
      '可选，默认为 https://qianfan.baidubce.com，末尾的 / 会被去掉',
    );
    await userEvent.click(type);
    await userEvent.click(await screen.findByRole('option', { name: 'VolcEngine Ark (Doubao)' }));

    await submit();
    expect(await screen.findByText('渠道更新成功！')).toBeInTheDocument();
    expect(bodyOf(calls, 'PUT')).toMatchObject({
      id: 5,
      type: 45,
      name: 'doubao',
      base_url: '',
      models: 'doubao-pro-32k',
    });
  });

  it('says the channel is gone when it cannot be loaded', async () => {
    const { router } = setup('/channel/edit/9', { 'GET /api/channel/9': () => fail('记录不存在') });
    expect(await screen.findByText('渠道未找到，请刷新页面后重试。')).toBeInTheDocument();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/channel'));
  });
});
