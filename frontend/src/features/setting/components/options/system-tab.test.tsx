import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { rootUser, renderWithProviders } from '@/test/render';
import { card, mockOptions, optionPuts, saveCard } from './options-test-kit';
import { SystemTab } from './system-tab';

const setup = (...args: Parameters<typeof mockOptions>) => {
  const api = mockOptions(...args);
  renderWithProviders(<SystemTab />, { user: rootUser });
  return api;
};

const type = (region: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(region).getByLabelText(label), { target: { value } });

describe('system tab', { timeout: 20_000 }, () => {
  it('sends only the changed key, trailing slashes trimmed, and reports 保存成功', async () => {
    const { calls } = setup();
    const general = await card('通用设置');
    type(general, '服务器地址', ' https://gw.example.com/// ');
    await saveCard(general);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([{ key: 'ServerAddress', value: 'https://gw.example.com' }]);
  });

  it('says 你似乎并没有修改什么 and sends nothing when nothing changed', async () => {
    const { calls } = setup();
    await saveCard(await card('配置 SMTP'));
    expect(await screen.findByText('你似乎并没有修改什么')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([]);
  });

  it('shows secrets blank, keeps a blank secret (not sent) and sends a typed one', async () => {
    const { calls } = setup();
    const github = await card('配置 GitHub OAuth App');
    expect(within(github).getByLabelText('GitHub Client Secret')).toHaveValue('');
    type(github, 'GitHub Client ID', 'Iv1.abc');
    await saveCard(github);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([{ key: 'GitHubClientId', value: 'Iv1.abc' }]);

    type(github, 'GitHub Client Secret', 's3cret');
    await saveCard(github);
    expect(await screen.findAllByText('保存成功')).toHaveLength(2);
    expect(optionPuts(calls).at(-1)).toEqual({ key: 'GitHubClientSecret', value: 's3cret' });
    // Saved secrets go blank again.
    expect(within(github).getByLabelText('GitHub Client Secret')).toHaveValue('');
  });

  it('port 465 forces SSL on (locked) and both go out in card order', async () => {
    const { calls } = setup();
    const smtp = await card('配置 SMTP');
    const ssl = within(smtp).getByRole('switch', { name: '启用 SMTP SSL' });
    expect(ssl).not.toBeChecked();
    type(smtp, 'SMTP 端口', '465');
    expect(ssl).toBeChecked();
    expect(ssl).toBeDisabled();
    await saveCard(smtp);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([
      { key: 'SMTPPort', value: '465' },
      { key: 'SMTPSSLEnabled', value: 'true' },
    ]);
  });

  it('turning password login off asks first, with a warning', async () => {
    const { calls } = setup();
    const login = await card('配置登录注册');
    const password = within(login).getByRole('switch', { name: '允许通过密码进行登录' });
    await userEvent.click(password);
    expect(await screen.findByText(/管理员也包括在内/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    expect(password).toBeChecked();

    await userEvent.click(password);
    await userEvent.click(await screen.findByRole('button', { name: '确定取消' }));
    expect(password).not.toBeChecked();
    await saveCard(login);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([{ key: 'PasswordLoginEnabled', value: 'false' }]);
  });

  it('payment needs the stored server address first', async () => {
    const { calls } = setup();
    const payment = await card('支付设置');
    type(payment, '易支付商户 ID', '1001');
    await saveCard(payment);
    expect(await screen.findByText('请先填写服务器地址')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([]);
  });

  it('checks the top-up group ratio JSON before sending', async () => {
    const { calls } = setup({ ServerAddress: 'https://gw.example.com' });
    const payment = await card('支付设置');
    type(payment, '充值分组倍率', '{"vip": 1,');
    await saveCard(payment);
    expect(await screen.findByText('充值分组倍率不是合法的 JSON 字符串')).toBeInTheDocument();
    expect(screen.getByText('请检查输入')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([]);
  });

  it('reports 部分保存失败 when some keys fail and 保存失败 when all do', async () => {
    const { calls } = setup({}, {}, ['WeChatAccountQRCodeImageURL', 'TelegramBotName']);
    const wechat = await card('配置 WeChat Server');
    type(wechat, 'WeChat Server 服务器地址', 'https://wx.example.com/');
    type(wechat, '微信公众号二维码图片链接', 'https://wx.example.com/qr.png');
    await saveCard(wechat);
    expect(await screen.findByText('部分保存失败，请重试')).toBeInTheDocument();
    expect(screen.getByText('WeChatAccountQRCodeImageURL refused')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([
      { key: 'WeChatServerAddress', value: 'https://wx.example.com' },
      { key: 'WeChatAccountQRCodeImageURL', value: 'https://wx.example.com/qr.png' },
    ]);

    const telegram = await card('配置 Telegram 登录');
    type(telegram, 'Telegram Bot 名称', 'tollgate_bot');
    await saveCard(telegram);
    expect(await screen.findByText('保存失败，请重试')).toBeInTheDocument();
  });

  it('keeps whitelist entries unique', async () => {
    const { calls } = setup();
    const whitelist = await card('配置邮箱域名白名单');
    const input = within(whitelist)
      .getAllByLabelText('允许的邮箱域名')
      .find((el) => el.tagName === 'INPUT' && el.getAttribute('type') !== 'hidden')!;
    await userEvent.type(input, 'qq.com{enter}example.org{enter}');
    await saveCard(whitelist);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([
      { key: 'EmailDomainWhitelist', value: 'gmail.com,qq.com,example.org' },
    ]);
  });
});
