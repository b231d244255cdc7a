/**
 * Scale-out accounts: three gateway processes on one DATA_DIR (SCALE_OUT=on) behind a round-robin
 * client. A code or reset link mailed by one process works at another, once (the codes are events,
 * not one process's memory); the failed-password lock-out counts the failures of every process.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { request } from 'undici';
import { readStoredEvents, waitUntil } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from '../support/gateway-http';
import { startScaleOutCluster, type ScaleOutCluster } from '../support/scale-out-cluster';
import { startSmtpSink } from '../support/start-smtp-sink';
import type { RunningGateway } from '../support/start-gateway';

jest.setTimeout(120_000);

const SMTP_ACCOUNT = 'mailer@tollgate.test';
const SMTP_TOKEN = 'smtp-Token-scale-out-7c1d';
const SERVER_ADDRESS = 'http://console.tollgate.test';
/** Failed passwords allowed per account within the window, summed over the processes. */
const ATTEMPT_LIMIT = 4;
const SCALE_OUT_ENV = {
  SCALE_OUT: 'on',
  PASSWORD_ATTEMPT_LIMIT: String(ATTEMPT_LIMIT),
  PASSWORD_ATTEMPT_WINDOW: '600',
};

/** A call whose refusal is the point: status and envelope, never thrown. */
async function call(url: string, method: 'GET' | 'POST', path: string, body?: object) {
  const res = await request(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await res.body.json()) as { success: boolean; message: string; data?: unknown };
  return { status: res.statusCode, ...envelope };
}

describe('scale-out accounts: mailed codes and password attempts across three processes', () => {
  let dataDir: string;
  let mailDir: string;
  let sink: ChildProcess;
  let cluster: ScaleOutCluster;
  let gateways: readonly RunningGateway[] = [];
  let root: GatewaySession;
  let turn = 0;
  let read = 0;
  /** alice's password once the reset link gave her a new one. */
  let alicePassword = '';

  /** The next process in round-robin order, as a balancer would pick it. */
  const next = () => gateways[turn++ % gateways.length]!.url;

  /** The next message the SMTP process accepted, parsed. */
  async function nextMail(): Promise<ParsedMail> {
    let files: string[] = [];
    await waitUntil(() => {
      files = readdirSync(mailDir).filter((f) => f.endsWith('.eml'));
      return files.length > read;
    }, 'a mail');
    const mail = await simpleParser(readFileSync(join(mailDir, files.sort()[read]!)));
    read += 1;
    return mail;
  }

  beforeAll(async () => {
    mailDir = mkdtempSync(join(tmpdir(), 'tollgate-scale-mail-'));
    const smtp = await startSmtpSink(mailDir, SMTP_ACCOUNT, SMTP_TOKEN);
    sink = smtp.child;
    cluster = await startScaleOutCluster(SCALE_OUT_ENV);
    ({ dataDir, gateways, root } = cluster);
    const options: Array<[string, string]> = [
      ['SMTPServer', '127.0.0.1'],
      ['SMTPPort', String(smtp.port)],
      ['SMTPAccount', SMTP_ACCOUNT],
      ['SMTPFrom', 'noreply@tollgate.test'],
      ['SMTPToken', SMTP_TOKEN],
      ['ServerAddress', SERVER_ADDRESS],
      ['EmailVerificationEnabled', 'true'],
    ];
    for (const [key, value] of options)
      await gatewayApi(gateways[0]!.url, '/api/option/', {
        method: 'PUT',
        body: { key, value },
        ...root,
      });
    // Every process follows the options through the log: the last one set shows the others arrived.
    for (const gateway of gateways)
      await waitUntil(async () => {
        const status = await call(gateway.url, 'GET', '/api/status');
        return (status.data as { email_verification?: boolean }).email_verification === true;
      }, `${gateway.url} sees the mail options`);
  });

  afterAll(async () => {
    await cluster?.stop();
    sink?.kill('SIGTERM');
  });

  it('a code mailed by one process registers at the next, once; its reset link likewise', async () => {
    const email = 'alice@example.com';
    expect(await call(next(), 'GET', `/api/verification?email=${email}`)).toMatchObject({
      success: true,
    });
    const code = /<strong>(\d{6})<\/strong>/.exec(String((await nextMail()).html))?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const register = (username: string) =>
      call(next(), 'POST', '/api/user/register', {
        username,
        password: 'password123',
        password2: 'password123',
        email,
        verification_code: code,
      });
    expect(await register('alice')).toMatchObject({ success: true });
    expect(await register('alice2')).toMatchObject({
      success: false,
      message: '验证码错误或已过期',
    });

    expect(await call(next(), 'GET', `/api/reset_password?email=${email}`)).toMatchObject({
      success: true,
    });
    const href = /href="([^"]+)"/.exec(String((await nextMail()).html))?.[1] ?? '';
    const token = new URL(href.replace(/&amp;/g, '&')).searchParams.get('token') ?? '';
    expect(token).not.toBe('');
    const reset = await call(next(), 'POST', '/api/user/reset', { email, token });
    expect(reset).toMatchObject({ success: true });
    expect(await call(next(), 'POST', '/api/user/reset', { email, token })).toMatchObject({
      success: false,
      message: '重置链接非法或已过期',
    });
    // The new password signs in at any process; the log holds hashes, never the code or token.
    alicePassword = String(reset.data);
    await gatewayLogin(next(), 'alice', alicePassword);
    const stored = readStoredEvents(dataDir)
      .filter((event) => event.streamId.startsWith('mailcode-'))
      .map((event) => event.rawData)
      .join('\n');
    expect(stored).toContain('codeHash');
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(token);
  });

  it('the failed-password lock-out counts the failures of every process', async () => {
    const login = (password: string) =>
      call(next(), 'POST', '/api/user/login', { username: 'alice', password });
    // ATTEMPT_LIMIT failures, spread over the three processes by the round-robin.
    for (let i = 0; i < ATTEMPT_LIMIT; i += 1)
      expect(await login('wrong-password')).toMatchObject({ status: 200, success: false });
    // The next try is refused whichever process takes it, even with the right password.
    for (let i = 0; i < gateways.length; i += 1)
      expect(await login(alicePassword)).toMatchObject({ status: 429, success: false });
    // The log holds exactly ATTEMPT_LIMIT failures since alice's last success, and no password.
    const attempts = readStoredEvents(dataDir).filter((event) =>
      event.streamId.startsWith('pwattempts-'),
    );
    const stream = attempts.at(-1)!.streamId;
    const sinceSuccess = attempts
      .filter((event) => event.streamId === stream)
      .map((event) => event.type)
      .join(',')
      .split('PasswordAttemptsCleared')
      .at(-1)!
      .split(',')
      .filter((type) => type === 'PasswordAttemptFailed');
    expect(sinceSuccess).toHaveLength(ATTEMPT_LIMIT);
    expect(attempts.map((event) => event.rawData).join('\n')).not.toContain('wrong-password');
  });
});
