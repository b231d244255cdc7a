import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type RecordedCall } from '@/test/mock-api';

/** What GET /api/option/ answers in these tests (secret keys are never in it). */
export const STORED_OPTIONS: Record<string, string> = {
  ServerAddress: '',
  WorkerUrl: '',
  PayAddress: '',
  EpayId: '',
  CustomCallbackAddress: '',
  Price: '7.3',
  MinTopUp: '1',
  TopupGroupRatio: '{"default":1}',
  PasswordLoginEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  EmailVerificationEnabled: 'false',
  GitHubOAuthEnabled: 'false',
  WeChatAuthEnabled: 'false',
  TelegramOAuthEnabled: 'false',
  TurnstileCheckEnabled: 'false',
  RegisterEnabled: 'true',
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  EmailDomainWhitelist: 'gmail.com,qq.com',
  SMTPServer: '',
  SMTPPort: '587',
  SMTPAccount: '',
  SMTPFrom: '',
  SMTPSSLEnabled: 'false',
  GitHubClientId: '',
  WeChatServerAddress: '',
  WeChatAccountQRCodeImageURL: '',
  TelegramBotName: '',
  TurnstileSiteKey: '',
  LogConsumeEnabled: 'true',
  ErrorLogEnabled: 'true',
  DataExportEnabled: 'true',
  DataExportInterval: '5',
  DataExportDefaultTime: 'hour',
  ModelRatio: '{"gpt-4o":1.25}',
  CompletionRatio: '{"gpt-4o":4}',
  ModelPrice: '{}',
  GroupRatio: '{"default":1}',
  UserUsableGroups: '{"default":"默认分组"}',
  CacheRatio: '{}',
  CacheCreationRatio: '{}',
  Chats: '[]',
  SystemName: 'Tollgate',
  Notice: '',
};

/**
 * The options API over mockApi: PUTs change the stored values (so the refetch after a save sees
 * them) unless `refuse` names the key.
 */
export function mockOptions(
  overrides: Record<string, string> = {},
  extra: Parameters<typeof mockApi>[0] = {},
  refuse: readonly string[] = [],
) {
  const stored = { ...STORED_OPTIONS, ...overrides };
  const api = mockApi({
    'GET /api/option/': () => ok(Object.entries(stored).map(([key, value]) => ({ key, value }))),
    'PUT /api/option/': (call) => {
      const { key, value } = call.body as { key: string; value: string };
      if (refuse.includes(key)) return fail(`${key} refused`);
      stored[key] = value;
      return ok();
    },
    'GET /api/channel/models_enabled': () => ok(['gpt-4o']),
    ...extra,
  });
  return { ...api, stored };
}

export const optionPuts = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method === 'PUT' && c.path === '/api/option/').map((c) => c.body);

/** The card titled `name` once its fields hold the stored values. */
export async function card(name: string) {
  const region = await screen.findByRole('region', { name });
  await waitFor(() => expect(within(region).getByRole('button', { name: '保存' })).toBeEnabled());
  return region;
}

export const saveCard = (region: HTMLElement) =>
  userEvent.click(within(region).getByRole('button', { name: '保存' }));
