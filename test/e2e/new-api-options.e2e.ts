/**
 * GET /api/option/ against the list new-api's own console (April-2025 build) reads: every key its
 * settings pages ask for is listed (secrets never), the relay keys with new-api's defaults, and the
 * dotted "config" keys (general_setting.*, gemini.*, claude.*, global.*, oidc.*) are read and
 * written like any other.
 */
import { loginRoot, startTestApp, type ConsoleClient, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

/** new-api's model/option.go keys that its GET /api/option/ answers (no *Token/*Secret/*Key). */
const NEW_API_KEYS = [
  'About',
  'AutomaticDisableChannelEnabled',
  'AutomaticDisableKeywords',
  'AutomaticEnableChannelEnabled',
  'CacheRatio',
  'ChannelDisableThreshold',
  'ChatLink',
  'ChatLink2',
  'Chats',
  'CheckSensitiveEnabled',
  'CheckSensitiveOnPromptEnabled',
  'CompletionRatio',
  'CustomCallbackAddress',
  'DataExportDefaultTime',
  'DataExportEnabled',
  'DataExportInterval',
  'DefaultCollapseSidebar',
  'DemoSiteEnabled',
  'DisplayInCurrencyEnabled',
  'DisplayTokenStatEnabled',
  'DrawingEnabled',
  'EmailAliasRestrictionEnabled',
  'EmailDomainRestrictionEnabled',
  'EmailDomainWhitelist',
  'EmailVerificationEnabled',
  'EpayId',
  'FileDownloadPermission',
  'FileUploadPermission',
  'Footer',
  'GitHubClientId',
  'GitHubOAuthEnabled',
  'GroupRatio',
  'HomePageContent',
  'ImageDownloadPermission',
  'ImageUploadPermission',
  'LinuxDOOAuthEnabled',
  'LinuxDOClientId',
  'LogConsumeEnabled',
  'Logo',
  'MinTopUp',
  'MjAccountFilterEnabled',
  'MjActionCheckSuccessEnabled',
  'MjForwardUrlEnabled',
  'MjModeClearEnabled',
  'MjNotifyEnabled',
  'ModelPrice',
  'ModelRatio',
  'ModelRequestRateLimitCount',
  'ModelRequestRateLimitDurationMinutes',
  'ModelRequestRateLimitEnabled',
  'ModelRequestRateLimitSuccessCount',
  'Notice',
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'PayAddress',
  'PreConsumedQuota',
  'Price',
  'QuotaForInvitee',
  'QuotaForInviter',
  'QuotaForNewUser',
  'QuotaPerUnit',
  'QuotaRemindThreshold',
  'RegisterEnabled',
  'RetryTimes',
  'SMTPAccount',
  'SMTPFrom',
  'SMTPPort',
  'SMTPSSLEnabled',
  'SMTPServer',
  'SelfUseModeEnabled',
  'SensitiveWords',
  'ServerAddress',
  'StopOnSensitiveEnabled',
  'StreamCacheQueueLength',
  'SystemName',
  'TaskEnabled',
  'TelegramBotName',
  'TelegramOAuthEnabled',
  'TopUpLink',
  'TopupGroupRatio',
  'TurnstileCheckEnabled',
  'UserUsableGroups',
  'WeChatAccountQRCodeImageURL',
  'WeChatAuthEnabled',
  'WeChatServerAddress',
  'WorkerUrl',
  // new-api's registered config modules (setting/config), stored as "<module>.<field>"
  'general_setting.docs_link',
  'gemini.safety_settings',
  'gemini.version_settings',
  'claude.model_headers_settings',
  'claude.default_max_tokens',
  'claude.thinking_adapter_enabled',
  'claude.thinking_adapter_budget_tokens_percentage',
  'global.pass_through_request_enabled',
  'oidc.enabled',
  'oidc.client_id',
  'oidc.well_known',
  'oidc.authorization_endpoint',
  'oidc.token_endpoint',
  'oidc.user_info_endpoint',
];

const SECRETS = [
  'SMTPToken',
  'EpayKey',
  'GitHubClientSecret',
  'WeChatServerToken',
  'TurnstileSecretKey',
  'TelegramBotToken',
  'WorkerValidKey',
  'LinuxDOClientSecret',
  'oidc.client_secret',
];

/** new-api's defaults for its relay keys. */
const NEW_API_DEFAULTS: Record<string, string> = {
  DemoSiteEnabled: 'false',
  SelfUseModeEnabled: 'false',
  StopOnSensitiveEnabled: 'true',
  StreamCacheQueueLength: '0',
  FileUploadPermission: '0',
  FileDownloadPermission: '0',
  ImageUploadPermission: '0',
  ImageDownloadPermission: '0',
  ModelRequestRateLimitEnabled: 'false',
  ModelRequestRateLimitCount: '0',
  ModelRequestRateLimitSuccessCount: '1000',
  ModelRequestRateLimitDurationMinutes: '1',
  AutomaticDisableKeywords: [
    'Your credit balance is too low',
    'This organization has been disabled.',
    'You exceeded your current quota',
    'Permission denied',
    'The security token included in the request is invalid',
    'Operation not allowed',
    'Your account is not authorized',
  ].join('\n'),
};

describe('GET /api/option/: the keys new-api’s console reads', () => {
  let t: TestApp;
  let root: ConsoleClient;
  const listed = async (): Promise<Map<string, string>> => {
    const res = await root.get('/api/option/');
    expect(res.body.success).toBe(true);
    return new Map(
      (res.body.data as Array<{ key: string; value: string }>).map((o) => [o.key, o.value]),
    );
  };

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lists every key of new-api’s list, and no secret', async () => {
    const options = await listed();
    const missing = NEW_API_KEYS.filter((key) => !options.has(key));
    expect(missing).toEqual([]);
    expect(SECRETS.filter((key) => options.has(key))).toEqual([]);
  });

  it('answers new-api’s defaults for the relay keys; CacheRatio holds new-api’s map', async () => {
    const options = await listed();
    for (const [key, value] of Object.entries(NEW_API_DEFAULTS)) {
      expect({ key, value: options.get(key) }).toEqual({ key, value });
    }
    const cache = JSON.parse(options.get('CacheRatio') ?? '{}') as Record<string, number>;
    expect(cache).toMatchObject({
      'gpt-4o': 0.5,
      'deepseek-chat': 0.25,
      'claude-3-7-sonnet-20250219': 0.1,
      o1: 0.5,
    });
  });

  it('a dotted key is written and read back like any other; bad values are refused and change nothing', async () => {
    const put = await root.put('/api/option/', {
      key: 'general_setting.docs_link',
      value: 'https://docs.example.com/tollgate/',
    });
    expect(put.body).toMatchObject({ success: true });
    expect((await listed()).get('general_setting.docs_link')).toBe(
      'https://docs.example.com/tollgate',
    );
    const status = await root.get('/api/status');
    expect(status.body.data.docs_link).toBe('https://docs.example.com/tollgate');
    for (const [key, value] of [
      ['StreamCacheQueueLength', '-1'],
      ['StreamCacheQueueLength', 'many'],
      ['StopOnSensitiveEnabled', 'yes'],
      ['FileDownloadPermission', '3'],
      ['ModelRequestRateLimitDurationMinutes', '0'],
    ] as const) {
      const before = (await listed()).get(key);
      const res = await root.put('/api/option/', { key, value });
      expect({ key, value, body: res.body }).toMatchObject({
        body: { success: false, message: expect.any(String) },
      });
      expect((await listed()).get(key)).toBe(before);
    }
  });
});
