import { rmSync } from 'node:fs';
import request from 'supertest';
import { loadConfig } from '../../apps/gateway/src/config/app-config';
import { setOptionOffline } from '../../apps/gateway/src/options/set-option-offline';
import { expectFailure, expectSuccess, readStoredEvents } from '../support/e2e-helpers';
import { loginRoot, ROOT, startTestApp, tempDataDir, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const SIGN_IN_SWITCHES = [
  'PasswordLoginEnabled',
  'GitHubOAuthEnabled',
  'WeChatAuthEnabled',
  'TelegramOAuthEnabled',
];

/** Lock-out recovery: `npm run option:set` runs this function against the stopped data dir. */
describe('option:set: recovering from a console that turned off every sign-in method', () => {
  const dataDir = tempDataDir();
  let t: TestApp | undefined;
  const cliConfig = () => loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'e2e-session-secret' });
  const passwordLogin = (url: string) =>
    request(url).post('/api/user/login').send({ username: ROOT.username, password: ROOT.password });

  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('turns every sign-in method off through the API: password login is refused', async () => {
    t = await startTestApp({ dataDir });
    const root = await loginRoot(t.url);
    const options = (await root.get('/api/option/')).body.data as Array<{
      key: string;
      value: string;
    }>;
    for (const key of SIGN_IN_SWITCHES) {
      if (options.find((o) => o.key === key)?.value === 'false') continue;
      expectSuccess(await root.put('/api/option/', { key, value: 'false' }));
    }
    const after = (await root.get('/api/option/')).body.data as Array<{
      key: string;
      value: string;
    }>;
    expect(SIGN_IN_SWITCHES.map((key) => after.find((o) => o.key === key)?.value)).toEqual(
      SIGN_IN_SWITCHES.map(() => 'false'),
    );
    expectFailure(await passwordLogin(t.url), '管理员关闭了密码登录');
    await t.close();
    t = undefined;
  });

  it('validates like the API: bad values and unknown keys are refused and append nothing', async () => {
    const before = readStoredEvents(dataDir, { type: 'OptionChanged' }).length;
    await expect(setOptionOffline(cliConfig(), 'PasswordLoginEnabled', 'yes')).rejects.toThrow(
      'PasswordLoginEnabled must be true or false',
    );
    await expect(setOptionOffline(cliConfig(), 'NoSuchOption', 'true')).rejects.toThrow(
      'Unknown option NoSuchOption',
    );
    expect(readStoredEvents(dataDir, { type: 'OptionChanged' })).toHaveLength(before);
  });

  it('restores PasswordLoginEnabled as a system-actor event; root signs in again', async () => {
    await setOptionOffline(cliConfig(), 'PasswordLoginEnabled', 'true');
    const last = readStoredEvents(dataDir, { type: 'OptionChanged' }).at(-1);
    expect(last?.data).toEqual({ key: 'PasswordLoginEnabled', value: 'true', previous: 'false' });
    expect(last?.metadata['actor']).toEqual({ kind: 'system', id: null, role: null });

    t = await startTestApp({ dataDir });
    const status = (await request(t.url).get('/api/status')).body.data as Record<string, unknown>;
    expect(status['password_login_enabled']).toBe(true);
    const login = await passwordLogin(t.url);
    expectSuccess(login);
    expect(login.body.data.username).toBe('root');
  });
});
