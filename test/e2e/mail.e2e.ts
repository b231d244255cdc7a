import { type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import request from 'supertest';
import { EmailCodes } from '../../apps/gateway/src/mail/email-codes';
import { ConsoleClient, loginRoot, startTestApp, type TestApp } from '../support/test-app';
import { startSmtpSink } from '../support/start-smtp-sink';
import { sqliteFileBytes } from '../support/e2e-helpers';

const SMTP_ACCOUNT = 'mailer@tollgate.test';
const SMTP_TOKEN = 'smtp-Secret-Token-4f9a1c';
const TURNSTILE_SECRET = 'turnstile-Secret-7d2e0b';
const SERVER_ADDRESS = 'http://console.tollgate.test';

/** Cloudflare's siteverify, played locally: the token "good" passes, anything else fails. */
function startSiteverifyMock(seen: Array<Record<string, string>>): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      seen.push(form);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: form['response'] === 'good' }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('mail: verification codes, password reset, email bind, Turnstile (real SMTP process)', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let mailDir: string;
  let sink: ChildProcess;
  let siteverify: Server;
  const siteverifyCalls: Array<Record<string, string>> = [];
  const logged: string[] = [];
  const answers: string[] = [];
  /** Reset tokens and the passwords they produced: neither may appear in logs or events. */
  const spent: string[] = [];
  let read = 0;

  /** Every message the SMTP process accepted so far. */
  const mailCount = () => readdirSync(mailDir).filter((f) => f.endsWith('.eml')).length;

  /** The next message the SMTP process accepted (in order), parsed; fails after 10 s. */
  async function nextMail(to: string): Promise<ParsedMail> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const files = readdirSync(mailDir)
        .filter((f) => f.endsWith('.eml'))
        .sort();
      if (files.length > read) {
        const mail = await simpleParser(readFileSync(join(mailDir, files[read]!)));
        read += 1;
        expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(to);
        return mail;
      }
      if (Date.now() > deadline) throw new Error(`no mail for ${to}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  const codeOf = (mail: ParsedMail) =>
    /<strong>(\d{6})<\/strong>/.exec(String(mail.html))?.[1] ?? '';

  /** Anonymous calls, answers kept for the secrets check. */
  async function anon(method: 'get' | 'post', path: string, body?: object) {
    const res =
      method === 'get'
        ? await request(t.url).get(path)
        : await request(t.url).post(path).send(body);
    answers.push(res.text);
    return res.body as { success: boolean; message: string; data?: unknown };
  }
  const sendCode = (email: string, turnstile = '') =>
    anon(
      'get',
      `/api/verification?email=${encodeURIComponent(email)}${turnstile ? `&turnstile=${turnstile}` : ''}`,
    );
  const register = (body: object, turnstile = '') =>
    anon('post', `/api/user/register${turnstile ? `?turnstile=${turnstile}` : ''}`, {
      password: 'password123',
      password2: 'password123',
      ...body,
    });
  async function setOption(key: string, value: string) {
    const res = await root.put('/api/option/', { key, value });
    expect(res.body).toMatchObject({ success: true });
  }

  beforeAll(async () => {
    mailDir = mkdtempSync(join(tmpdir(), 'tollgate-mail-'));
    const smtp = await startSmtpSink(mailDir, SMTP_ACCOUNT, SMTP_TOKEN);
    sink = smtp.child;
    siteverify = await startSiteverifyMock(siteverifyCalls);
    const address = siteverify.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    // Everything the gateway logs is captured (and kept off the test output) for the secrets check.
    t = await startTestApp({
      logLine: (line) => logged.push(line),
      env: {
        LOG_LEVEL: 'debug',
        TURNSTILE_VERIFY_URL: `http://127.0.0.1:${address.port}/turnstile/v0/siteverify`,
      },
    });
    root = await loginRoot(t.url);
    await setOption('SMTPServer', '127.0.0.1');
    await setOption('SMTPPort', String(smtp.port));
    await setOption('SMTPAccount', SMTP_ACCOUNT);
    await setOption('SMTPFrom', 'noreply@tollgate.test');
    await setOption('SMTPToken', SMTP_TOKEN);
    await setOption('ServerAddress', SERVER_ADDRESS);
    await setOption('EmailVerificationEnabled', 'true');
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
    sink?.kill('SIGTERM');
    await new Promise((r) => siteverify?.close(r));
  });

  it('registers with a mailed code: wrong, missing and reused codes refused; the email then signs in', async () => {
    expect(await sendCode('Alice@Example.com')).toEqual({ success: true, message: '' });
    const mail = await nextMail('alice@example.com');
    expect(mail.from?.text).toContain('noreply@tollgate.test');
    expect(mail.subject).toBe('Tollgate邮箱验证邮件');
    const code = codeOf(mail);
    expect(code).toMatch(/^\d{6}$/);

    expect(await register({ username: 'alice', email: 'alice@example.com' })).toEqual({
      success: false,
      message: expect.stringContaining('验证码') as string,
    });
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      await register({ username: 'alice', email: 'alice@example.com', verification_code: wrong }),
    ).toEqual({ success: false, message: '验证码错误或已过期' });
    expect(
      await register({ username: 'alice', email: 'Alice@Example.com', verification_code: code }),
    ).toEqual({ success: true, message: '' });

    // Single use: the same code does not register a second account.
    expect(
      await register({ username: 'alice2', email: 'alice@example.com', verification_code: code }),
    ).toEqual({ success: false, message: '验证码错误或已过期' });
    // The verified (normalized) address signs in and is the user's.
    const alice = await new ConsoleClient(t.url).login('ALICE@example.com', 'password123');
    expect((await alice.get('/api/user/self')).body.data).toMatchObject({
      username: 'alice',
      email: 'alice@example.com',
    });
    expect(await sendCode('alice@example.com')).toEqual({
      success: false,
      message: '邮箱地址已被占用',
    });
  });

  it('refuses a second mail within 30 seconds, and a code past its validity', async () => {
    const before = mailCount();
    expect(await sendCode('bob@example.com')).toMatchObject({ success: true });
    const code = codeOf(await nextMail('bob@example.com'));
    const again = await sendCode('bob@example.com');
    expect(again.success).toBe(false);
    expect(again.message).toMatch(/^发送过于频繁，请 (30|29) 秒后再试$/);
    expect(mailCount()).toBe(before + 1);

    const codes = t.app.get(EmailCodes);
    const realNow = codes.now;
    codes.now = () => realNow() + 10 * 60_000 + 1;
    try {
      expect(
        await register({ username: 'bob', email: 'bob@example.com', verification_code: code }),
      ).toEqual({ success: false, message: '验证码错误或已过期' });
      // Past the 30 seconds a new code may be mailed.
      expect(await sendCode('bob@example.com')).toMatchObject({ success: true });
    } finally {
      codes.now = realNow;
    }
    const fresh = codeOf(await nextMail('bob@example.com'));
    expect(
      await register({ username: 'bob', email: 'bob@example.com', verification_code: fresh }),
    ).toEqual({ success: true, message: '' });
  });

  it('applies the format, domain whitelist and alias rules before mailing anything', async () => {
    const before = mailCount();
    expect(await sendCode('not-an-email')).toEqual({ success: false, message: '邮箱地址不合法' });
    await setOption('EmailDomainWhitelist', 'example.com');
    await setOption('EmailDomainRestrictionEnabled', 'true');
    expect((await sendCode('carol@other.org')).message).toBe(
      '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    );
    await setOption('EmailAliasRestrictionEnabled', 'true');
    for (const alias of ['carol+tag@example.com', 'car.ol@example.com'])
      expect((await sendCode(alias)).message).toBe(
        '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
      );
    // The rules hold at registration too, whatever code is sent along.
    expect(
      (await register({ username: 'carol', email: 'carol@other.org', verification_code: '123456' }))
        .message,
    ).toBe('管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中');
    expect(mailCount()).toBe(before);
    await setOption('EmailAliasRestrictionEnabled', 'false');
    await setOption('EmailDomainRestrictionEnabled', 'false');
  });

  it('resets a password by the mailed link, once; the new password is only in the answer', async () => {
    expect(await anon('get', '/api/reset_password?email=nobody@example.com')).toEqual({
      success: false,
      message: '该邮箱地址未注册',
    });
    expect(await anon('get', '/api/reset_password?email=alice@example.com')).toEqual({
      success: true,
      message: '',
    });
    const mail = await nextMail('alice@example.com');
    expect(mail.subject).toBe('Tollgate密码重置');
    const href = /href="([^"]+)"/.exec(String(mail.html))?.[1]?.replace(/&amp;/g, '&') ?? '';
    const link = new URL(href);
    expect(`${link.origin}${link.pathname}`).toBe(`${SERVER_ADDRESS}/user/reset`);
    const email = link.searchParams.get('email') ?? '';
    const token = link.searchParams.get('token') ?? '';
    expect(email).toBe('alice@example.com');

    expect(await anon('post', '/api/user/reset', { email, token: `${token}x` })).toEqual({
      success: false,
      message: '重置链接非法或已过期',
    });
    const reset = await anon('post', '/api/user/reset', { email, token });
    expect(reset).toMatchObject({ success: true, message: '' });
    const password = String(reset.data);
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    await new ConsoleClient(t.url).login('alice', password);
    expect(
      (
        await request(t.url)
          .post('/api/user/login')
          .send({ username: 'alice', password: 'password123' })
      ).body.success,
    ).toBe(false);
    expect(await anon('post', '/api/user/reset', { email, token })).toEqual({
      success: false,
      message: '重置链接非法或已过期',
    });
    expect(await anon('post', '/api/user/reset', { email: '', token: '' })).toMatchObject({
      success: false,
    });
    spent.push(token, password);
  });

  it('an email typed with verification off is stored, but neither signs in nor gets a reset mail', async () => {
    await setOption('EmailVerificationEnabled', 'false');
    expect(await register({ username: 'dave', email: 'dave@example.com' })).toMatchObject({
      success: true,
    });
    const byEmail = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'dave@example.com', password: 'password123' });
    expect(byEmail.body.success).toBe(false);
    const dave = await new ConsoleClient(t.url).login('dave', 'password123');
    expect((await dave.get('/api/user/self')).body.data.email).toBe('dave@example.com');
    expect((await anon('get', '/api/reset_password?email=dave@example.com')).message).toBe(
      '该邮箱地址未注册',
    );
    // Typing an address does not take it: it can still be verified (here by dave himself).
    expect(await sendCode('dave@example.com')).toMatchObject({ success: true });
    const code = codeOf(await nextMail('dave@example.com'));
    expect(
      (await dave.get(`/api/oauth/email/bind?email=dave@example.com&code=${code}`)).body,
    ).toEqual({ success: true, message: '' });
    await new ConsoleClient(t.url).login('dave@example.com', 'password123');
  });

  it('binds an email from the personal tab; the address is unique across accounts', async () => {
    expect(await register({ username: 'erin' })).toMatchObject({ success: true });
    const erin = await new ConsoleClient(t.url).login('erin', 'password123');
    expect(
      (await request(t.url).get('/api/oauth/email/bind?email=a@example.com&code=1')).status,
    ).toBe(401);
    expect(await sendCode('erin@example.com')).toMatchObject({ success: true });
    const code = codeOf(await nextMail('erin@example.com'));
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      (await erin.get(`/api/oauth/email/bind?email=erin@example.com&code=${wrong}`)).body,
    ).toEqual({ success: false, message: '验证码错误或已过期' });
    expect(
      (await erin.get(`/api/oauth/email/bind?email=erin@example.com&code=${code}`)).body,
    ).toEqual({ success: true, message: '' });
    expect((await erin.get('/api/user/self')).body.data).toMatchObject({
      email: 'erin@example.com',
    });
    // Taken now: no code is mailed for it.
    expect((await sendCode('erin@example.com')).message).toBe('邮箱地址已被占用');

    // One code, two accounts racing for the address: the guard stream lets exactly one win.
    expect(await sendCode('shared@example.com')).toMatchObject({ success: true });
    const shared = codeOf(await nextMail('shared@example.com'));
    const [bind, reg] = await Promise.all([
      erin.get(`/api/oauth/email/bind?email=shared@example.com&code=${shared}`),
      (async () => {
        await setOption('EmailVerificationEnabled', 'true');
        return register({
          username: 'frank',
          email: 'shared@example.com',
          verification_code: shared,
        });
      })(),
    ]);
    const outcomes = [bind.body as { success: boolean; message: string }, reg];
    expect(outcomes.filter((o) => o.success)).toHaveLength(1);
    expect(['邮箱地址已被占用', '验证码错误或已过期']).toContain(
      outcomes.find((o) => !o.success)?.message,
    );
    await setOption('EmailVerificationEnabled', 'false');
    if (!reg.success) {
      // The losing registration let its username go again.
      expect(await register({ username: 'frank' })).toMatchObject({ success: true });
    }

    // Rebinding releases the old address: it can be verified by someone else.
    expect(await sendCode('erin2@example.com')).toMatchObject({ success: true });
    const second = codeOf(await nextMail('erin2@example.com'));
    const previous = (await erin.get('/api/user/self')).body.data.email as string;
    expect(
      (await erin.get(`/api/oauth/email/bind?email=erin2@example.com&code=${second}`)).body,
    ).toEqual({ success: true, message: '' });
    expect(await sendCode(previous)).toMatchObject({ success: true });
    await nextMail(previous);
  });

  it('Turnstile: off it is not asked; on, a missing or refused token is turned away', async () => {
    await setOption('TurnstileSiteKey', 'site-key');
    await setOption('TurnstileSecretKey', TURNSTILE_SECRET);
    await setOption('TurnstileCheckEnabled', 'true');
    const login = (turnstile?: string) =>
      anon('post', `/api/user/login${turnstile === undefined ? '' : `?turnstile=${turnstile}`}`, {
        username: 'erin',
        password: 'password123',
      });
    const before = mailCount();
    expect(await login()).toEqual({ success: false, message: 'Turnstile token 为空' });
    expect(await login('bad')).toEqual({
      success: false,
      message: 'Turnstile 校验失败，请刷新重试！',
    });
    expect(await login('good')).toMatchObject({ success: true });
    expect(await register({ username: 'gina' })).toEqual({
      success: false,
      message: 'Turnstile token 为空',
    });
    expect(await register({ username: 'gina' }, 'bad')).toMatchObject({ success: false });
    expect(await register({ username: 'gina' }, 'good')).toMatchObject({ success: true });
    expect(await sendCode('gina@example.com', 'bad')).toEqual({
      success: false,
      message: 'Turnstile 校验失败，请刷新重试！',
    });
    expect((await anon('get', '/api/reset_password?email=alice@example.com')).message).toBe(
      'Turnstile token 为空',
    );
    expect(mailCount()).toBe(before);
    expect(await sendCode('gina@example.com', 'good')).toMatchObject({ success: true });
    await nextMail('gina@example.com');
    expect(
      await anon('get', '/api/reset_password?email=alice@example.com&turnstile=good'),
    ).toMatchObject({ success: true });
    await nextMail('alice@example.com');
    // The mock saw the secret key and the token, form-encoded, with the client's address.
    expect(siteverifyCalls.at(-1)).toMatchObject({
      secret: TURNSTILE_SECRET,
      response: 'good',
      remoteip: '127.0.0.1',
    });
    await setOption('TurnstileCheckEnabled', 'false');
    const callsBefore = siteverifyCalls.length;
    expect(await login()).toMatchObject({ success: true });
    expect(siteverifyCalls).toHaveLength(callsBefore);
  });

  it('an SMTP failure answers clearly; SMTP and Turnstile secrets, codes and passwords stay out of logs, events and answers', async () => {
    await setOption('SMTPToken', 'wrong-Token-for-the-log-check');
    const failed = await sendCode('henry@example.com');
    expect(failed).toEqual({
      success: false,
      message: '邮件发送失败，请检查 SMTP 设置或稍后重试',
    });
    // The failed mail left no code behind: a retry is not told to wait.
    await setOption('SMTPToken', SMTP_TOKEN);
    expect(await sendCode('henry@example.com')).toMatchObject({ success: true });
    const code = codeOf(await nextMail('henry@example.com'));

    const options = await root.get('/api/option/');
    answers.push(options.text);
    const logText = logged.join('');
    expect(logText).toContain('EAUTH');
    // With the payloads decoded: they are stored compressed.
    const stored = sqliteFileBytes(join(t.dataDir, 'events.sqlite')).toString('latin1');
    expect(stored).toContain('UserEmailBound');
    expect(spent).toHaveLength(2);
    const secrets = [SMTP_TOKEN, 'wrong-Token-for-the-log-check', TURNSTILE_SECRET, code, ...spent];
    for (const secret of secrets) {
      expect(logText).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
    // The answers hold no SMTP or Turnstile secret and no code (the new password is only in its own).
    for (const secret of secrets.slice(0, 4)) expect(answers.join('\n')).not.toContain(secret);
  });
});
