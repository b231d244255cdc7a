/**
 * Notices end to end: low-balance warnings by mail (a real SMTP server process) and by webhook (a
 * real node:http receiver that verifies the HMAC), retries, the private-address rule, channel
 * alerts from an upstream `invalid_api_key`, and who may list which notices.
 */
import { type ChildProcess } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import request from 'supertest';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { ChannelAlerts } from '../../apps/gateway/src/notices/channel-alerts';
import { NoticeDelivery } from '../../apps/gateway/src/notices/notice-delivery';
import { allSqliteText, expectSuccess, readStoredEvents, waitUntil } from '../support/e2e-helpers';
import { addRelayChannel, createRelayToken, relaySdk } from '../support/relay-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';
import { startSmtpSink } from '../support/start-smtp-sink';

jest.setTimeout(120_000);

const SMTP_ACCOUNT = 'mailer@tollgate.test';
const SMTP_TOKEN = 'smtp-Secret-Token-notices';
const SERVER_ADDRESS = 'http://console.tollgate.test';
const WEBHOOK_SECRET = 'whsec-Notice-Secret-31f7a9';
const ROOT_SECRET = 'whsec-Root-Secret-8c2d44';

interface Delivery {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: Record<string, unknown>;
  /** The receiver's own check of X-Tollgate-Signature with the secret it was given. */
  readonly verified: boolean;
}

/** A webhook receiver: verifies the signature per path's secret; answers 500 while `failing`. */
function startReceiver(secrets: Record<string, string>) {
  const received: Delivery[] = [];
  const state = { failing: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = secrets[req.url ?? ''] ?? '';
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
      );
      const given = Buffer.from(String(req.headers['x-tollgate-signature'] ?? ''));
      const verified = given.length === expected.length && timingSafeEqual(given, expected);
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body,
        json: JSON.parse(body) as Record<string, unknown>,
        verified,
      });
      if (state.failing > 0) {
        state.failing -= 1;
        res.statusCode = 500;
        res.end('down');
        return;
      }
      res.end('ok');
    });
  });
  return new Promise<{ server: Server; port: number; received: Delivery[]; state: typeof state }>(
    (resolve) =>
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        if (!address || typeof address === 'string') throw new Error('no address');
        resolve({ server, port: address.port, received, state });
      }),
  );
}

describe('notices: low-balance warnings, channel alerts, webhook and mail delivery', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let upstream: MockUpstream;
  let routing: RoutingTable;
  let mailDir: string;
  let sink: ChildProcess;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let read = 0;
  let users = 0;
  /** The user of the mail test (disarmed below its threshold at the end of it). */
  let mailUserId = 0;

  const mailCount = () => readdirSync(mailDir).filter((f) => f.endsWith('.eml')).length;
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
  const settle = (ms = 600) => new Promise((r) => setTimeout(r, ms));

  async function setOption(key: string, value: string) {
    const res = await root.put('/api/option/', { key, value });
    expect(res.body).toMatchObject({ success: true });
  }
  const setQuota = async (id: number, quota: number) =>
    expectSuccess(await root.put('/api/user/', { id, quota }));
  const hookUrl = (path: string) => `http://127.0.0.1:${receiver.port}${path}`;
  const noticesOf = async (web: ConsoleClient) =>
    (await web.get('/api/user/notices?p=1&page_size=50')).body.data as {
      items: Array<{
        notice_id: string;
        kind: string;
        delivered: boolean;
        attempts: Array<{ ok: boolean; status: number }>;
      }>;
      total: number;
    };

  async function newUser(): Promise<ConsoleClient> {
    users += 1;
    return registerAndLogin(t.url, `notice${users}`);
  }

  beforeAll(async () => {
    mailDir = mkdtempSync(join(tmpdir(), 'tollgate-notices-'));
    const smtp = await startSmtpSink(mailDir, SMTP_ACCOUNT, SMTP_TOKEN);
    sink = smtp.child;
    receiver = await startReceiver({ '/user': WEBHOOK_SECRET, '/root': ROOT_SECRET });
    upstream = await MockUpstream.start();
    t = await startTestApp();
    routing = t.app.get(RoutingTable);
    // Seconds instead of minutes: the same backoff, shorter.
    t.app.get(NoticeDelivery).policy = {
      firstMs: 150,
      capMs: 600,
      windowMs: 60_000,
      timeoutMs: 3000,
    };
    t.app.get(ChannelAlerts).policy = { coalesceMs: 400, perChannelMs: 10 * 60_000 };
    root = await loginRoot(t.url);
    await setOption('SMTPServer', '127.0.0.1');
    await setOption('SMTPPort', String(smtp.port));
    await setOption('SMTPAccount', SMTP_ACCOUNT);
    await setOption('SMTPFrom', 'noreply@tollgate.test');
    await setOption('SMTPToken', SMTP_TOKEN);
    await setOption('ServerAddress', SERVER_ADDRESS);
    await setOption('WebhookAllowPrivateAddresses', 'true');
    await setOption('ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075 }));
    await setOption('CompletionRatio', JSON.stringify({ 'gpt-4o-mini': 4 }));
    await addRelayChannel(root, routing, {
      type: 1,
      name: 'main',
      key: 'sk-upstream-main',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
    sink?.kill('SIGTERM');
    await new Promise((r) => receiver?.server.close(r));
  });

  it('mails one warning per crossing, in the display unit with the top-up link, re-armed by a top-up', async () => {
    const web = await newUser();
    mailUserId = web.userId;
    expectSuccess(
      await web.put('/api/user/setting', {
        notify_type: 'email',
        quota_warning_threshold: 500_000,
        notification_email: 'low@notice.test',
      }),
    );
    await setQuota(web.userId, 2_000_000); // above: armed
    await settle(300);
    expect(mailCount()).toBe(read);

    await setQuota(web.userId, 400_000); // crosses below
    const mail = await nextMail('low@notice.test');
    expect(mail.subject).toContain('额度提醒');
    expect(String(mail.html)).toContain('$0.80'); // 400000 / 500000 per dollar
    expect(String(mail.html)).toContain(`${SERVER_ADDRESS}/topup`);

    await setQuota(web.userId, 300_000); // still below: nothing more
    await setQuota(web.userId, 100_000);
    await settle();
    expect(mailCount()).toBe(read);

    await setQuota(web.userId, 3_000_000); // a top-up re-arms
    await setQuota(web.userId, 200_000); // the second crossing
    const second = await nextMail('low@notice.test');
    expect(String(second.html)).toContain('$0.40');
    await settle();
    expect(mailCount()).toBe(read);

    const list = await noticesOf(web);
    expect(list.items.filter((n) => n.kind === 'quota_warning')).toHaveLength(2);
    expect(list.items.every((n) => n.delivered && n.attempts[0]!.ok)).toBe(true);
  });

  it('posts a signed webhook when relay usage crosses, retries after a failure, and lists every attempt', async () => {
    const web = await newUser();
    const { key } = await createRelayToken(web, { name: 'n', unlimited_quota: true });
    await setQuota(web.userId, 1_000_000);
    expectSuccess(
      await web.put('/api/user/setting', {
        notify_type: 'webhook',
        quota_warning_threshold: 999_999,
        webhook_url: hookUrl('/user'),
        webhook_secret: WEBHOOK_SECRET,
      }),
    );
    // The settings as new-api's `setting` text, without the secret.
    const self = await web.get('/api/user/self');
    expect(JSON.parse(self.body.data.setting as string)).toEqual({
      notify_type: 'webhook',
      quota_warning_threshold: 999_999,
      webhook_url: hookUrl('/user'),
      webhook_secret_set: true,
      notification_email: '',
      accept_admin_alerts: false,
    });
    expect(self.text).not.toContain(WEBHOOK_SECRET);
    // An administrator sees the address without its path (it can carry a credential).
    const seen = await root.get(`/api/user/${web.userId}`);
    const url = new URL(hookUrl('/user'));
    expect(JSON.parse(seen.body.data.setting as string).webhook_url).toBe(
      `${url.protocol}//${url.host}/…`,
    );

    receiver.state.failing = 1;
    const before = receiver.received.length;
    const sdk = relaySdk(t.url, key);
    await sdk.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
    });
    await sdk.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'y' }],
    });
    await waitUntil(() => receiver.received.length >= before + 2, 'the retry', 10_000);
    await settle();
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(2); // the failed attempt and its retry, one crossing
    for (const delivery of got) {
      expect(delivery.verified).toBe(true);
      expect(delivery.json).toMatchObject({
        type: 'quota_warning',
        user_id: web.userId,
        threshold: 999_999,
        topup_url: `${SERVER_ADDRESS}/topup`,
      });
      expect(delivery.json['balance']).toBeLessThan(999_999);
      expect(Date.parse(String(delivery.json['time']))).toBeGreaterThan(0);
    }
    expect(got[0]!.body).toBe(got[1]!.body);

    await waitUntil(
      async () => (await noticesOf(web)).items[0]?.attempts.length === 2,
      'attempts listed',
    );
    const [notice] = (await noticesOf(web)).items;
    expect(notice).toMatchObject({ kind: 'quota_warning', delivered: true });
    expect(notice!.attempts.map((a) => [a.ok, a.status])).toEqual([
      [false, 500],
      [true, 200],
    ]);

    // The test button: one signed `test` notice, answered.
    const tested = await web.post('/api/user/setting/test');
    expect(tested.body).toMatchObject({ success: true, data: { ok: true, status: 200 } });
    const last = receiver.received[receiver.received.length - 1]!;
    expect(last.json['type']).toBe('test');
    expect(last.verified).toBe(true);

    // The secret is sealed in the log and never answered.
    expect(allSqliteText(join(t.dataDir, 'events.sqlite'))).not.toContain(WEBHOOK_SECRET);
    const attempts = readStoredEvents(t.dataDir, { type: 'NoticeDeliveryAttempted' });
    expect(attempts.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses webhook URLs on private or loopback addresses unless the admin allows them', async () => {
    const web = await newUser();
    await setOption('WebhookAllowPrivateAddresses', 'false');
    try {
      for (const url of [
        hookUrl('/user'),
        'http://localhost:9/x',
        'http://[::1]:9/x',
        'http://10.1.2.3/x',
      ]) {
        const res = await web.put('/api/user/setting', {
          notify_type: 'webhook',
          webhook_url: url,
        });
        expect(res.body).toEqual({
          success: false,
          message: 'Webhook 地址指向内网、回环或链路本地地址，已被拒绝',
        });
      }
      const bad = await web.put('/api/user/setting', { notify_type: 'sms' });
      expect(bad.body.success).toBe(false);
      const ftp = await web.put('/api/user/setting', {
        notify_type: 'webhook',
        webhook_url: 'ftp://x/y',
      });
      expect(ftp.body.success).toBe(false);
      const negative = await web.put('/api/user/setting', {
        notify_type: 'email',
        quota_warning_threshold: -1,
      });
      expect(negative.body.success).toBe(false);
    } finally {
      await setOption('WebhookAllowPrivateAddresses', 'true');
    }
  });

  it('refuses IPv4 wrapped in IPv6 (mapped, compatible, NAT64, 6to4, Teredo) when saved and when delivered', async () => {
    const web = await newUser();
    // Allowed: the receiver is reached through its IPv4-mapped address, a real way in.
    const mapped = `http://[::ffff:127.0.0.1]:${receiver.port}/user`;
    expectSuccess(
      await web.put('/api/user/setting', {
        notify_type: 'webhook',
        webhook_url: mapped,
        webhook_secret: WEBHOOK_SECRET,
      }),
    );
    const reached = receiver.received.length;
    expect((await web.post('/api/user/setting/test')).body).toMatchObject({
      success: true,
      data: { ok: true, status: 200 },
    });
    expect(receiver.received.length).toBe(reached + 1);
    await setOption('WebhookAllowPrivateAddresses', 'false');
    try {
      // The saved address is judged again at delivery: refused for good, nothing sent.
      expect((await web.post('/api/user/setting/test')).body).toEqual({
        success: false,
        message: '测试通知发送失败：refused: private address',
      });
      expect(receiver.received.length).toBe(reached + 1);
      for (const url of [
        mapped,
        `http://[::ffff:7f00:1]:${receiver.port}/user`,
        'http://[::7f00:1]/x',
        'http://[64:ff9b::a00:1]/x',
        'http://[2002:7f00:1::]/x',
        'http://[2001:0:808:808::80ff:fffe]/x',
      ]) {
        const res = await web.put('/api/user/setting', {
          notify_type: 'webhook',
          webhook_url: url,
        });
        expect(res.body).toEqual({
          success: false,
          message: 'Webhook 地址指向内网、回环或链路本地地址，已被拒绝',
        });
      }
    } finally {
      await setOption('WebhookAllowPrivateAddresses', 'true');
    }
  });

  it('judges the address connected to: a name that turns to loopback after the check is not called', async () => {
    const web = await newUser();
    const delivery = t.app.get(NoticeDelivery);
    // DNS rebinding: public for the checks (save, then delivery), loopback when connecting.
    const answers = ['93.184.216.34', '93.184.216.34', '127.0.0.1'];
    const asked: string[] = [];
    delivery.lookup = (host) => {
      asked.push(host);
      return Promise.resolve([{ address: answers.shift() ?? '127.0.0.1' }]);
    };
    await setOption('WebhookAllowPrivateAddresses', 'false');
    try {
      expectSuccess(
        await web.put('/api/user/setting', {
          notify_type: 'webhook',
          webhook_url: `http://hooks.rebind.test:${receiver.port}/user`,
        }),
      );
      const before = receiver.received.length;
      expect((await web.post('/api/user/setting/test')).body).toEqual({
        success: false,
        message: '测试通知发送失败：ADDRESS_REFUSED',
      });
      expect(receiver.received.length).toBe(before);
      expect(asked).toEqual(['hooks.rebind.test', 'hooks.rebind.test', 'hooks.rebind.test']);
    } finally {
      delivery.lookup = undefined;
      await setOption('WebhookAllowPrivateAddresses', 'true');
    }
  });

  it('sends root one alert for channels disabled together by an upstream invalid_api_key', async () => {
    expectSuccess(
      await root.put('/api/user/setting', {
        notify_type: 'webhook',
        webhook_url: hookUrl('/root'),
        webhook_secret: ROOT_SECRET,
        accept_admin_alerts: true,
      }),
    );
    await setOption('AutomaticDisableChannelEnabled', 'true');
    await setOption('RetryTimes', '3');
    try {
      const dead: number[] = [];
      for (const [name, priority] of [
        ['dead-a', 30],
        ['dead-b', 20],
      ] as const) {
        dead.push(
          await addRelayChannel(root, routing, {
            type: 1,
            name,
            key: `sk-${name}`,
            base_url: upstream.url,
            models: 'gpt-4o-mini',
            group: 'default',
            priority,
          }),
        );
        upstream.forKey(`sk-${name}`, { fail: 'invalid_key' });
      }
      const web = await newUser();
      const { key } = await createRelayToken(web, { name: 'n', unlimited_quota: true });
      await setQuota(web.userId, 1_000_000);
      const sdk = relaySdk(t.url, key);
      await sdk.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x' }],
      });
      await waitUntil(
        () => dead.every((id) => routing.channel(id)?.status === 3),
        'both channels auto-disabled',
      );
      await waitUntil(
        () =>
          receiver.received.some((d) => d.path === '/root' && d.json['type'] === 'channel_alert'),
        'the alert',
        10_000,
      );
      await settle(1200);
      const alerts = receiver.received.filter(
        (d) => d.path === '/root' && d.json['type'] === 'channel_alert',
      );
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.verified).toBe(true);
      const channels = alerts[0]!.json['channels'] as Array<Record<string, unknown>>;
      expect(channels.map((c) => c['channel_id']).sort()).toEqual([...dead].sort());
      for (const c of channels) {
        // The model of the failing call is named (carried on the ChannelStatusChanged event).
        expect(c).toMatchObject({ status_to: 3, model: 'gpt-4o-mini' });
        expect(String(c['reason'])).toContain('invalid_api_key');
        expect(String(c['channel_name'])).toMatch(/^dead-/);
        expect(c['time']).toEqual(expect.any(Number));
      }
      // A common user gets no alert.
      expect((await noticesOf(web)).items.filter((n) => n.kind === 'channel_alert')).toHaveLength(
        0,
      );
    } finally {
      await setOption('AutomaticDisableChannelEnabled', 'false');
      await setOption('RetryTimes', '0');
    }
  });

  it('lists notices to their owner only, and to no one signed out', async () => {
    const anonymous = await request(t.url).get('/api/user/notices');
    expect(anonymous.status).toBe(401);
    const web = await newUser();
    const mine = await noticesOf(web);
    expect(mine.total).toBe(0);
    const rootList = await noticesOf(root);
    expect(rootList.items.some((n) => n.kind === 'channel_alert')).toBe(true);
    expect((await request(t.url).post('/api/user/setting/test')).status).toBe(401);
    expect(
      (await request(t.url).put('/api/user/setting').send({ notify_type: 'email' })).status,
    ).toBe(401);
  });

  it('after a restart nothing is sent again, and the armed state is what the log says', async () => {
    const mailsBefore = mailCount();
    const hooksBefore = receiver.received.length;
    await t.close();
    t = await startTestApp({ dataDir: t.dataDir });
    t.app.get(NoticeDelivery).policy = {
      firstMs: 150,
      capMs: 600,
      windowMs: 60_000,
      timeoutMs: 3000,
    };
    root = await loginRoot(t.url);
    await settle(1000);
    expect(mailCount()).toBe(mailsBefore);
    expect(receiver.received.length).toBe(hooksBefore);

    await setQuota(mailUserId, 50_000); // still below: disarmed since the last warning
    await settle();
    expect(mailCount()).toBe(mailsBefore);
    await setQuota(mailUserId, 1_000_000); // re-armed
    await setQuota(mailUserId, 10_000); // crosses
    const mail = await nextMail('low@notice.test');
    expect(String(mail.html)).toContain('$0.02');
  });
});
