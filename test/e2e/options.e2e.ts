import { join } from 'node:path';
import request from 'supertest';
import { OPTION_CATALOGUE } from '@tollgate/domain';
import {
  allSqliteText,
  expectFailure,
  expectSuccess,
  readStoredEvents,
  sqliteFileBytes,
} from '../support/e2e-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/** Every option key of one-api's settings pages. */
const SPEC_KEYS = [
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'EmailVerificationEnabled',
  'GitHubOAuthEnabled',
  'WeChatAuthEnabled',
  'TelegramOAuthEnabled',
  'TurnstileCheckEnabled',
  'RegisterEnabled',
  'EmailDomainRestrictionEnabled',
  'EmailAliasRestrictionEnabled',
  'SMTPSSLEnabled',
  'EmailDomainWhitelist',
  'SMTPServer',
  'SMTPPort',
  'SMTPAccount',
  'SMTPFrom',
  'SMTPToken',
  'ServerAddress',
  'WorkerUrl',
  'WorkerValidKey',
  'EpayId',
  'EpayKey',
  'Price',
  'MinTopUp',
  'TopupGroupRatio',
  'PayAddress',
  'CustomCallbackAddress',
  'GitHubClientId',
  'GitHubClientSecret',
  'WeChatServerAddress',
  'WeChatServerToken',
  'WeChatAccountQRCodeImageURL',
  'TurnstileSiteKey',
  'TurnstileSecretKey',
  'TelegramBotToken',
  'TelegramBotName',
  'Notice',
  'SystemName',
  'Logo',
  'Footer',
  'About',
  'HomePageContent',
  'TopUpLink',
  'ChatLink',
  'ChatLink2',
  'QuotaPerUnit',
  'RetryTimes',
  'DisplayInCurrencyEnabled',
  'DisplayTokenStatEnabled',
  'DefaultCollapseSidebar',
  'DrawingEnabled',
  'MjNotifyEnabled',
  'MjAccountFilterEnabled',
  'MjForwardUrlEnabled',
  'MjModeClearEnabled',
  'MjActionCheckSuccessEnabled',
  'CheckSensitiveEnabled',
  'CheckSensitiveOnPromptEnabled',
  'SensitiveWords',
  'LogConsumeEnabled',
  'DataExportEnabled',
  'DataExportInterval',
  'DataExportDefaultTime',
  'ChannelDisableThreshold',
  'QuotaRemindThreshold',
  'AutomaticDisableChannelEnabled',
  'AutomaticEnableChannelEnabled',
  'QuotaForNewUser',
  'PreConsumedQuota',
  'QuotaForInviter',
  'QuotaForInvitee',
  'ModelPrice',
  'ModelRatio',
  'CompletionRatio',
  'GroupRatio',
  'UserUsableGroups',
  'Chats',
];

/** Keys whose values must never leave the server. */
const SECRET_KEYS = [
  'SMTPToken',
  'WorkerValidKey',
  'EpayKey',
  'GitHubClientSecret',
  'WeChatServerToken',
  'TurnstileSecretKey',
  'TelegramBotToken',
  'oidc.client_secret',
  'LinuxDOClientSecret',
  'StripeApiSecret',
  'StripeWebhookSecret',
];

/** Every key of libs/contracts/src/status.dto.ts (StatusDto). */
const STATUS_KEYS = [
  'version',
  'start_time',
  'system_name',
  'logo',
  'footer_html',
  'server_address',
  'top_up_link',
  'quota_per_unit',
  'display_in_currency',
  'display_token_stat',
  'enable_drawing',
  'enable_task',
  'enable_data_export',
  'enable_online_topup',
  'min_topup',
  // Stripe
  'enable_stripe_topup',
  'stripe_unit_price',
  'stripe_min_topup',
  'chats',
  'data_export_default_time',
  'default_collapse_sidebar',
  'mj_notify_enabled',
  'chat_link',
  'chat_link2',
  'email_verification',
  'turnstile_check',
  'turnstile_site_key',
  'github_oauth',
  'github_client_id',
  'wechat_login',
  'wechat_qrcode',
  'telegram_oauth',
  'telegram_bot_name',
  'github_authorize_url',
  'oidc_enabled',
  'oidc_client_id',
  'oidc_authorization_endpoint',
  'linuxdo_oauth',
  'linuxdo_client_id',
  'linuxdo_authorize_url',
  'setup',
  'password_login_enabled',
  'password_register_enabled',
  'register_enabled',
  'page_size',
  // new-api's keys
  'docs_link',
  'demo_site_enabled',
  'self_use_mode_enabled',
  'price',
  'enable_batch_update',
];

type OptionList = Array<{ key: string; value: string }>;

describe('system options (GET/PUT /api/option/)', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let initial: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
  });
  afterAll(() => t.close());

  async function options(): Promise<Record<string, string>> {
    const res = await root.get('/api/option/');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const list = res.body.data as OptionList;
    const map = Object.fromEntries(list.map(({ key, value }) => [key, value]));
    expect(Object.keys(map)).toHaveLength(list.length); // keys are unique
    return map;
  }
  const status = async () =>
    (await request(t.url).get('/api/status')).body.data as Record<string, unknown>;
  const put = (key: string, value: unknown, lang?: string) => {
    const req = root.put('/api/option/', { key, value });
    return lang ? req.set('Accept-Language', lang) : req;
  };
  const setOption = async (key: string, value: unknown) => expectSuccess(await put(key, value));
  const optionEvents = () => readStoredEvents(t.dataDir, { streamId: 'options' });
  /** The stored value again: success (as new-api answers), and no event recorded. */
  async function expectNoChange(key: string, value: unknown): Promise<void> {
    const before = readStoredEvents(t.dataDir).length;
    expectSuccess(await put(key, value));
    expect(readStoredEvents(t.dataDir).length).toBe(before);
  }

  /** A rejected PUT answers the message and changes nothing: same options, same status, no event. */
  async function expectRejected(body: object, message: string | RegExp): Promise<void> {
    const [optionsBefore, statusBefore, eventsBefore] = [
      await options(),
      await status(),
      readStoredEvents(t.dataDir).length,
    ];
    const res = await root.put('/api/option/', body);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    if (typeof message === 'string') expect(res.body.message).toBe(message);
    else expect(res.body.message).toMatch(message);
    expect(await options()).toEqual(optionsBefore);
    expect(await status()).toEqual(statusBefore);
    expect(readStoredEvents(t.dataDir)).toHaveLength(eventsBefore);
  }

  it('lists every spec key with its default, and no secret key', async () => {
    initial = await options();
    for (const key of SPEC_KEYS.filter((k) => !SECRET_KEYS.includes(k)))
      expect(initial).toHaveProperty(key);
    for (const key of SECRET_KEYS) expect(initial).not.toHaveProperty(key);
    for (const value of Object.values(initial)) expect(typeof value).toBe('string');
    expect(initial).toMatchObject({
      SystemName: 'Tollgate',
      RegisterEnabled: 'true',
      PasswordLoginEnabled: 'true',
      PasswordRegisterEnabled: 'true',
      EmailVerificationEnabled: 'false',
      GitHubOAuthEnabled: 'false',
      SMTPPort: '587',
      Price: '7.3',
      MinTopUp: '1',
      QuotaPerUnit: '500000',
      ServerAddress: '',
      Notice: '',
    });
    expect(JSON.parse(initial['UserUsableGroups']!)).toEqual({
      default: '默认分组',
      vip: 'vip分组',
    });
    expect(Object.keys(JSON.parse(initial['GroupRatio']!) as object)).toEqual([
      'default',
      'vip',
      'svip',
    ]);
    // Exactly the catalogue's non-secret keys, each at its default.
    const expected = Object.fromEntries(
      Object.entries(OPTION_CATALOGUE)
        .filter(([, d]) => !d.secret)
        .map(([k, d]) => [k, d.defaultValue]),
    );
    expect(initial).toEqual(expected);
  });

  const REJECTED: Array<[object, string | RegExp]> = [
    [{ key: 'NoSuchKey', value: 'x' }, '未知的配置项 NoSuchKey'],
    [{ key: 'RegisterEnabled', value: 'yes' }, 'RegisterEnabled 必须是 true 或 false'],
    [{ key: 'RegisterEnabled', value: 'TRUE' }, 'RegisterEnabled 必须是 true 或 false'],
    [{ key: 'RetryTimes', value: 'abc' }, 'RetryTimes 必须是整数'],
    [{ key: 'RetryTimes', value: '1.5' }, 'RetryTimes 必须是整数'],
    [{ key: 'RetryTimes', value: '-1' }, 'RetryTimes 不能小于 0'],
    [{ key: 'Price', value: 'cheap' }, 'Price 必须是数字'],
    [{ key: 'ModelRatio', value: 'not json' }, 'ModelRatio 不是合法的 JSON 字符串'],
    [{ key: 'ModelRatio', value: '{"gpt-4o": "1"}' }, 'ModelRatio 不是合法的 JSON 字符串'],
    [{ key: 'CompletionRatio', value: '[1, 2]' }, 'CompletionRatio 不是合法的 JSON 字符串'],
    [{ key: 'ModelPrice', value: '{"dall-e-3": -1}' }, 'ModelPrice 不是合法的 JSON 字符串'],
    [{ key: 'GroupRatio', value: '{' }, 'GroupRatio 不是合法的 JSON 字符串'],
    [{ key: 'UserUsableGroups', value: '{"vip": 1}' }, 'UserUsableGroups 不是合法的 JSON 字符串'],
    [{ key: 'Chats', value: '{"NextChat": "https://x"}' }, 'Chats 不是合法的 JSON 字符串'],
    [{ key: 'TopupGroupRatio', value: '{' }, '充值分组倍率不是合法的 JSON 字符串'],
    [{ key: 'TopupGroupRatio', value: '{"vip": "cheap"}' }, '充值分组倍率不是合法的 JSON 字符串'],
    [{ key: 'ServerAddress', value: 'gw.example.com' }, 'ServerAddress 不是合法的 http(s) 地址'],
    [{ key: 'EmailDomainWhitelist', value: 'gmail.com,localhost' }, '邮箱域名 localhost 不合法'],

    // Payment settings need the server address first.
    [{ key: 'PayAddress', value: 'https://pay.example.com' }, '请先填写服务器地址'],
    [{ key: 'EpayId', value: '1001' }, '请先填写服务器地址'],
    [{ key: 'EpayKey', value: 'epay-secret' }, '请先填写服务器地址'],

    // Switches that need their configuration first.
    [
      { key: 'GitHubOAuthEnabled', value: 'true' },
      '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
    ],
    [
      { key: 'EmailVerificationEnabled', value: 'true' },
      '无法开启邮箱验证，请先填入 SMTP 相关配置信息！',
    ],

    // Malformed bodies.
    // A switch or a number needs its value (a text key without one means '': new-api-answers.e2e.ts).
    [{ key: 'DrawingEnabled' }, '输入不合法：字段 value 不能为空'],
    [{ key: 'RetryTimes' }, '输入不合法：字段 value 不能为空'],
    // null is the value left out: a text key then means '' (new-api-answers.e2e.ts).
    [{ key: 'DrawingEnabled', value: null }, '输入不合法：字段 value 不能为空'],
    [{ key: 'Notice', value: { text: 'x' } }, '无效的参数'],
    [{ value: 'x' }, /^输入不合法/],
  ];

  it('rejects bad values with their message and changes nothing', async () => {
    for (const [body, message] of REJECTED) await expectRejected(body, message);
    const en = await put('ModelRatio', 'not json', 'en-US');
    expect(en.body).toEqual({ success: false, message: 'ModelRatio is not a valid JSON string' });
    expect(await options()).toEqual(initial);
  });

  it('stores valid values of each kind and shows them in GET /api/option/ and /api/status', async () => {
    const before = optionEvents().length;
    await setOption('SystemName', '  My Gateway  '); // string: trimmed
    await setOption('DisplayInCurrencyEnabled', 'false'); // bool
    await setOption('DrawingEnabled', false); // bool sent as a JSON boolean by older clients (default on)
    await setOption('DefaultCollapseSidebar', 'true');
    await setOption('RetryTimes', ' 007 '); // int: canonical form
    await setOption('MinTopUp', 5);
    await setOption('QuotaPerUnit', '1000.5'); // float
    await setOption('Price', '8.25');
    const ratio = '{"gpt-4o": 2.5, "my-model": 0}';
    await setOption('ModelRatio', ratio); // JSON, kept as written
    const chats = '[{"My Chat": "https://chat.example.com/?key={key}&url={address}"}]';
    await setOption('Chats', chats);
    await setOption('TopupGroupRatio', '{"default": 1, "vip": 0.9}');
    await setOption('ServerAddress', ' https://gw.example.com/// '); // address: trailing slashes stripped
    await setOption('PayAddress', 'https://pay.example.com/epay/'); // allowed now that ServerAddress is set
    await setOption('EmailDomainWhitelist', ' Example.com, example.COM,\nfoo.org '); // email list: normalized
    await setOption('Logo', 'https://cdn.example.com/logo.png');
    await setOption('Footer', '<b>footer</b>');
    await setOption('ChatLink', 'https://chat.example.com');
    await setOption('TurnstileSiteKey', 'site-key-1');

    const now = await options();
    expect(now).toMatchObject({
      SystemName: 'My Gateway',
      DisplayInCurrencyEnabled: 'false',
      DrawingEnabled: 'false',
      DefaultCollapseSidebar: 'true',
      RetryTimes: '7',
      MinTopUp: '5',
      QuotaPerUnit: '1000.5',
      Price: '8.25',
      ModelRatio: ratio,
      Chats: chats,
      TopupGroupRatio: '{"default": 1, "vip": 0.9}',
      ServerAddress: 'https://gw.example.com',
      PayAddress: 'https://pay.example.com/epay',
      EmailDomainWhitelist: 'example.com,foo.org',
    });
    // Everything else kept its default.
    const changed = new Set([
      'SystemName',
      'DisplayInCurrencyEnabled',
      'DrawingEnabled',
      'DefaultCollapseSidebar',
      'RetryTimes',
      'MinTopUp',
      'QuotaPerUnit',
      'Price',
      'ModelRatio',
      'Chats',
      'TopupGroupRatio',
      'ServerAddress',
      'PayAddress',
      'EmailDomainWhitelist',
      'Logo',
      'Footer',
      'ChatLink',
      'TurnstileSiteKey',
    ]);
    for (const [key, value] of Object.entries(initial))
      if (!changed.has(key)) expect([key, now[key]]).toEqual([key, value]);

    expect(await status()).toMatchObject({
      system_name: 'My Gateway',
      display_in_currency: false,
      enable_drawing: false,
      default_collapse_sidebar: true,
      quota_per_unit: 1000.5,
      min_topup: 5,
      chats: [{ 'My Chat': 'https://chat.example.com/?key={key}&url={address}' }],
      server_address: 'https://gw.example.com',
      logo: 'https://cdn.example.com/logo.png',
      footer_html: '<b>footer</b>',
      chat_link: 'https://chat.example.com',
      turnstile_site_key: 'site-key-1',
      enable_online_topup: false, // needs EpayId and EpayKey too
    });

    // One OptionChanged per accepted PUT, with old and new value and root as the actor.
    const events = optionEvents().slice(before);
    expect(events).toHaveLength(changed.size);
    expect(events.every((e) => e.type === 'OptionChanged')).toBe(true);
    expect(events.find((e) => e.data['key'] === 'ServerAddress')?.data).toEqual({
      key: 'ServerAddress',
      value: 'https://gw.example.com',
      previous: '',
    });
    expect(events.find((e) => e.data['key'] === 'SystemName')?.data).toEqual({
      key: 'SystemName',
      value: 'My Gateway',
      previous: 'Tollgate',
    });
    for (const e of events) expect(e.metadata['actor']).toEqual({ kind: 'user', id: 1, role: 100 });

    // The same value (after normalization) is no change.
    await expectNoChange('ServerAddress', 'https://gw.example.com/');
    await expectNoChange('RetryTimes', '7');
    await expectNoChange('SystemName', 'My Gateway');
    await expectNoChange('RegisterEnabled', 'true');
    await expectNoChange('RegisterEnabled', true);
  });

  it('keeps secrets out of the log, the read store and every answer', async () => {
    const secrets: Record<string, string> = {
      SMTPToken: 'smtp-S3CRET-7f3a9c1e-token',
      GitHubClientSecret: 'gh-S3CRET-0b8d2e44-client',
      TelegramBotToken: 'tg-S3CRET-91aa7c0d-bot',
      EpayKey: 'epay-S3CRET-5c6e1f2a-key',
    };
    for (const [key, value] of Object.entries(secrets)) await setOption(key, value);
    // The secret is recorded (its keyed hash says "same value"), yet never listed.
    await expectNoChange('SMTPToken', secrets['SMTPToken']);
    const listed = await options();
    for (const key of SECRET_KEYS) expect(listed).not.toHaveProperty(key);

    // GitHub OAuth needs the client id and the secret: the stored secret counts.
    expectFailure(
      await put('GitHubOAuthEnabled', 'true'),
      '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
    );
    await setOption('GitHubClientId', 'gh-client-id');
    await setOption('GitHubOAuthEnabled', 'true');
    expect(await status()).toMatchObject({ github_oauth: true, github_client_id: 'gh-client-id' });
    await setOption('EpayId', '1001');
    expect((await status())['enable_online_topup']).toBe(true);

    const sealed = readStoredEvents(t.dataDir, {
      streamId: 'options',
      type: 'SecretOptionChanged',
    });
    expect(sealed.map((e) => e.data['key']).sort()).toEqual(Object.keys(secrets).sort());
    for (const e of sealed)
      expect(e.data['sealed']).toEqual({ cipher: expect.any(String), hash: expect.any(String) });

    const eventText = readStoredEvents(t.dataDir)
      .map((e) => `${e.rawData}\n${e.rawMetadata}`)
      .join('\n');
    const readText = allSqliteText(join(t.dataDir, 'read.sqlite'));
    const files = Buffer.concat([
      sqliteFileBytes(join(t.dataDir, 'events.sqlite')),
      sqliteFileBytes(join(t.dataDir, 'read.sqlite')),
    ]);
    const user = await registerAndLogin(t.url, 'secretprobe');
    const answers = [
      await root.get('/api/option/'),
      await request(t.url).get('/api/status'),
      await request(t.url).get('/api/notice'),
      await request(t.url).get('/api/about'),
      await request(t.url).get('/api/home_page_content'),
      await root.get('/api/user/self'),
      await root.get('/api/user/'),
      await user.get('/api/user/self'),
      await user.get('/api/user/self/groups'),
    ].map((res) => JSON.stringify(res.body));
    expect(eventText).toContain('SMTPToken'); // the scan does see the options stream
    for (const secret of Object.values(secrets)) {
      expect(eventText).not.toContain(secret);
      expect(readText).not.toContain(secret);
      expect(files.includes(Buffer.from(secret))).toBe(false);
      for (const answer of answers) expect(answer).not.toContain(secret);
    }

    // Clearing a secret is a change; clearing it again is not.
    await setOption('TelegramBotToken', '');
    await expectNoChange('TelegramBotToken', '');
  });

  it('POST /api/option/rest_model_ratio restores ModelRatio, CompletionRatio and ModelPrice', async () => {
    await setOption('CompletionRatio', '{"gpt-4o": 2}');
    await setOption('ModelPrice', '{"dall-e-3": 1}');
    const changed = await options();
    expect(changed['ModelRatio']).not.toBe(initial['ModelRatio']);
    const before = optionEvents().length;

    expectSuccess(await root.post('/api/option/rest_model_ratio'));
    const after = await options();
    for (const key of ['ModelRatio', 'CompletionRatio', 'ModelPrice'])
      expect([key, after[key]]).toEqual([key, initial[key]]);
    expect(after).toEqual({
      ...changed,
      ModelRatio: initial['ModelRatio'],
      CompletionRatio: initial['CompletionRatio'],
      ModelPrice: initial['ModelPrice'],
    });
    const resets = optionEvents().slice(before);
    expect(resets.map((e) => [e.data['key'], e.data['previous']])).toEqual([
      ['ModelRatio', changed['ModelRatio']],
      ['CompletionRatio', '{"gpt-4o": 2}'],
      ['ModelPrice', '{"dall-e-3": 1}'],
    ]);

    // Nothing left to reset: still a success, no event.
    expectSuccess(await root.post('/api/option/rest_model_ratio'));
    expect(optionEvents()).toHaveLength(before + 3);
  });

  describe('switches take effect at once', () => {
    const register = (username: string, extra: object = {}) =>
      request(t.url)
        .post('/api/user/register')
        .send({ username, password: 'password123', password2: 'password123', ...extra });
    const exists = async (username: string) =>
      (
        (await root.get(`/api/user/search?keyword=${username}`)).body.data.items as Array<{
          username: string;
        }>
      ).some((u) => u.username === username);

    it('RegisterEnabled=false closes registration (not admin creation)', async () => {
      await setOption('RegisterEnabled', 'false');
      expect((await status())['register_enabled']).toBe(false);
      expectFailure(await register('closed1'), '管理员关闭了新用户注册');
      expect(await exists('closed1')).toBe(false);
      expectSuccess(
        await root.post('/api/user/', { username: 'byadmin', password: 'password123' }),
      );
      await setOption('RegisterEnabled', 'true');
      expectSuccess(await register('closed1'));
    });

    it('PasswordRegisterEnabled=false refuses password registration', async () => {
      await setOption('PasswordRegisterEnabled', 'false');
      expect((await status())['password_register_enabled']).toBe(false);
      expectFailure(
        await register('nopwreg'),
        '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
      );
      expect(await exists('nopwreg')).toBe(false);
      await setOption('PasswordRegisterEnabled', 'true');
      expectSuccess(await register('nopwreg'));
    });

    it('PasswordLoginEnabled=false refuses password login; existing sessions keep working', async () => {
      await setOption('PasswordLoginEnabled', 'false');
      expect((await status())['password_login_enabled']).toBe(false);
      const login = (username: string, password: string) =>
        request(t.url).post('/api/user/login').send({ username, password });
      expectFailure(await login('nopwreg', 'password123'), '管理员关闭了密码登录');
      expectFailure(await login('root', '123456'), '管理员关闭了密码登录');
      expect((await root.get('/api/user/self')).body.success).toBe(true);
      await setOption('PasswordLoginEnabled', 'true');
      expect((await login('nopwreg', 'password123')).body.success).toBe(true);
    });

    it('EmailDomainRestrictionEnabled admits only whitelisted domains', async () => {
      await setOption('EmailDomainWhitelist', '');
      expectFailure(
        await put('EmailDomainRestrictionEnabled', 'true'),
        '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
      );
      await setOption('EmailDomainWhitelist', 'example.com, allowed.org');
      await setOption('EmailDomainRestrictionEnabled', 'true');
      expectFailure(
        await register('wrongdomain', { email: 'someone@other.net' }),
        '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
      );
      expectFailure(
        await register('subdomain', { email: 'someone@mail.example.com' }),
        '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
      );
      expect(await exists('wrongdomain')).toBe(false);
      expectSuccess(await register('rightdomain', { email: 'someone@example.com' }));
      expectSuccess(await register('rightdomain2', { email: 'Someone@ALLOWED.org' }));
      const self = await new ConsoleClient(t.url).login('rightdomain', 'password123');
      expect((await self.get('/api/user/self')).body.data.email).toBe('someone@example.com');
      await setOption('EmailDomainRestrictionEnabled', 'false');
      expectSuccess(await register('wrongdomain', { email: 'someone@other.net' }));
    });

    it('EmailAliasRestrictionEnabled rejects aliases such as a+b@gmail.com', async () => {
      expectSuccess(await register('aliasok', { email: 'a+b@gmail.com' }));
      await setOption('EmailAliasRestrictionEnabled', 'true');
      expectFailure(
        await register('aliasbad', { email: 'a+b@gmail.com' }),
        '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
      );
      expect(await exists('aliasbad')).toBe(false);
      expectSuccess(await register('aliasplain', { email: 'ab@gmail.com' }));
      await setOption('EmailAliasRestrictionEnabled', 'false');
    });
  });

  describe('public pages', () => {
    it('GET /api/status has every StatusDto key, typed, and needs no session', async () => {
      const res = await request(t.url).get('/api/status');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const data = res.body.data as Record<string, unknown>;
      expect(Object.keys(data).sort()).toEqual([...STATUS_KEYS].sort());
      for (const key of ['quota_per_unit', 'min_topup', 'start_time', 'page_size', 'price'])
        expect([key, typeof data[key]]).toEqual([key, 'number']);
      for (const key of STATUS_KEYS.filter((k) =>
        /^(enable_|display_|email_verification|turnstile_check|github_oauth|wechat_login|telegram_oauth|oidc_enabled|default_collapse|mj_notify|password_|register_enabled)/.test(
          k,
        ),
      ))
        expect([key, typeof data[key]]).toEqual([key, 'boolean']);
      for (const key of [
        'version',
        'system_name',
        'logo',
        'footer_html',
        'server_address',
        'chat_link',
        'chat_link2',
        'data_export_default_time',
        'telegram_bot_name',
        'wechat_qrcode',
        'docs_link',
      ])
        expect([key, typeof data[key]]).toEqual([key, 'string']);
      expect(Array.isArray(data['chats'])).toBe(true);
      expect(data['page_size']).toBe(10);
    });

    it('GET /api/notice, /api/about and /api/home_page_content reflect their options', async () => {
      const get = async (path: string) => {
        const res = await request(t.url).get(path);
        expect(res.status).toBe(200);
        return res.body;
      };
      expect(await get('/api/notice')).toEqual({ success: true, message: '', data: '' });
      const notice = '  # Notice\n\n  indented line\n';
      await setOption('Notice', notice);
      await setOption('About', '## About us');
      await setOption('HomePageContent', 'https://home.example.com');
      expect(await get('/api/notice')).toEqual({ success: true, message: '', data: notice });
      expect((await get('/api/about')).data).toBe('## About us');
      expect((await get('/api/home_page_content')).data).toBe('https://home.example.com');
      await setOption('Notice', '');
      expect((await get('/api/notice')).data).toBe('');
    });
  });
});
