/**
 * new-api's per-user `setting` (notification settings) through the built CLI (`npm run
 * build:server`): the settings come back through the console API as the user's own, the webhook
 * secret is sealed (never in clear in the event store, the report or the output), invalid fields
 * are dropped and reported, a second run appends nothing, and a low-balance warning reaches the
 * imported user over the imported webhook, signed with the imported secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allSqliteText, readStoredEvents, waitUntil } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin } from '../support/gateway-http';
import { bcryptOf, newApiDatabase } from '../support/import-fixtures';
import { startGateway } from '../support/start-gateway';
import { CLI, runImportCli } from '../support/gateway-cli';

jest.setTimeout(180_000);

const SECRET = 'whsec-Imported-Secret-4d9be1';

interface Delivery {
  readonly path: string;
  readonly json: Record<string, unknown>;
  /** X-Tollgate-Signature checked with the secret the source held. */
  readonly verified: boolean;
}

/** A webhook receiver on 127.0.0.1 that checks each delivery's signature with SECRET. */
function startReceiver() {
  const received: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      );
      const given = Buffer.from(String(req.headers['x-tollgate-signature'] ?? ''));
      received.push({
        path: req.url ?? '',
        json: JSON.parse(body) as Record<string, unknown>,
        verified: given.length === expected.length && timingSafeEqual(given, expected),
      });
      res.end('ok');
    });
  });
  return new Promise<{ server: Server; port: number; received: Delivery[] }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      resolve({ server, port: address.port, received });
    }),
  );
}

describe('import: new-api notification settings (built CLI)', () => {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-import-settings-'));
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build:server` first');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await new Promise((r) => receiver?.server.close(r));
  });

  it('imports them sealed, reports dropped fields, and a low balance reaches the imported webhook', async () => {
    const hook = `http://127.0.0.1:${receiver.port}/alice`;
    const file = newApiDatabase(mkdtempSync(join(work, 'src-')), {
      users: [
        {
          id: 1,
          username: 'root',
          password: await bcryptOf('rootpass1'),
          role: 100,
          status: 1,
          quota: 100,
          aff_code: 'r00t',
          deleted_at: null,
        },
        {
          id: 2,
          username: 'alice',
          password: await bcryptOf('alicepass'),
          role: 1,
          status: 1,
          email: 'alice@example.com',
          quota: 3_000_000,
          aff_code: 'al1c',
          deleted_at: null,
          setting: JSON.stringify({
            notify_type: 'webhook',
            quota_warning_threshold: 2_000_000,
            webhook_url: hook,
            webhook_secret: SECRET,
            notification_email: 'not-an-address',
            accept_unset_model_ratio_model: true,
          }),
        },
        {
          id: 3,
          username: 'carol',
          password: await bcryptOf('carolpass'),
          role: 1,
          status: 1,
          quota: 50,
          aff_code: 'c4r0',
          deleted_at: null,
          setting: JSON.stringify({
            notify_type: 'webhook',
            quota_warning_threshold: -1,
            webhook_url: 'ftp://files.example.com/drop',
            notification_email: 'carol@mail.example.com',
          }),
        },
        {
          id: 4,
          username: 'gone',
          password: await bcryptOf('gonepass1'),
          role: 1,
          status: 1,
          aff_code: 'g0n3',
          deleted_at: '2025-01-01 00:00:00+00:00',
          setting: JSON.stringify({ notify_type: 'email', notification_email: 'gone@example.com' }),
        },
      ],
    });
    const dataDir = mkdtempSync(join(work, 'data-'));

    const first = runImportCli(dataDir, [file]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/users: read 4, imported 4, already imported 0, skipped 0/);
    expect(first.out).toContain(
      'users #2 dropped setting: keys Tollgate has no setting for: accept_unset_model_ratio_model',
    );
    expect(first.out).toContain(
      'users #2 dropped setting.notification_email: not an email address',
    );
    expect(first.out).toContain('users #3 dropped setting.webhook_url: not an http(s) URL');
    expect(first.out).toContain(
      'users #3 dropped setting.quota_warning_threshold: not a non-negative number',
    );
    expect(first.out).toContain(
      'users #3 changed setting.notify_type: webhook without a valid webhook URL: email used',
    );
    expect(first.out).toMatch(/users #4 dropped setting: the user is deleted/);
    expect(first.out).not.toContain(SECRET);
    const reports = readdirSync(dataDir).filter((f) => f.startsWith('import-report-'));
    expect(reports).toHaveLength(1);
    const report = readFileSync(join(dataDir, reports[0]!), 'utf8');
    expect(report).toContain('setting.webhook_url');
    expect(report).not.toContain(SECRET);

    const settings = () => readStoredEvents(dataDir, { type: 'UserNotificationSettingsChanged' });
    expect(settings().map((e) => e.streamId)).toEqual(['user-2', 'user-3']);
    expect(settings()[0]!.metadata).toMatchObject({
      import: { project: 'new-api', table: 'users', rowId: 2 },
    });
    // Sealed: a cipher and a keyed hash, never the secret itself.
    expect(settings()[0]!.data['sealedWebhookSecret']).toMatchObject({
      cipher: expect.any(String),
      hash: expect.any(String),
    });
    expect(allSqliteText(join(dataDir, 'events.sqlite'))).not.toContain(SECRET);

    const again = runImportCli(dataDir, [file]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/users: read 4, imported 0, already imported 4, skipped 0/);
    expect(settings()).toHaveLength(2);

    const gateway = await startGateway({ dataDir });
    try {
      const url = gateway.url;
      const root = await gatewayLogin(url, 'root', 'rootpass1');
      await gatewayApi(url, '/api/option/', {
        method: 'PUT',
        body: { key: 'WebhookAllowPrivateAddresses', value: 'true' },
        ...root,
      });

      const alice = await gatewayLogin(url, 'alice', 'alicepass');
      const self = await gatewayApi(url, '/api/user/self', { method: 'GET', ...alice });
      expect(JSON.stringify(self.data)).not.toContain(SECRET);
      expect(JSON.parse(self.data.setting as string)).toEqual({
        notify_type: 'webhook',
        quota_warning_threshold: 2_000_000,
        webhook_url: hook,
        webhook_secret_set: true,
        notification_email: '',
        accept_admin_alerts: false,
      });
      const carol = await gatewayLogin(url, 'carol', 'carolpass');
      const carolSelf = await gatewayApi(url, '/api/user/self', { method: 'GET', ...carol });
      expect(JSON.parse(carolSelf.data.setting as string)).toEqual({
        notify_type: 'email',
        webhook_url: '',
        webhook_secret_set: false,
        notification_email: 'carol@mail.example.com',
        accept_admin_alerts: false,
      });

      // 3 000 000 ≥ the imported 2 000 000 threshold: armed; an admin edit to 1 000 000 crosses.
      const before = receiver.received.length;
      await gatewayApi(url, '/api/user/', {
        method: 'PUT',
        body: { id: 2, quota: 1_000_000 },
        ...root,
      });
      await waitUntil(() => receiver.received.length > before, 'the low-balance webhook', 10_000);
      const delivery = receiver.received[before]!;
      expect(delivery.path).toBe('/alice');
      expect(delivery.verified).toBe(true);
      expect(delivery.json).toMatchObject({
        type: 'quota_warning',
        user_id: 2,
        balance: 1_000_000,
        threshold: 2_000_000,
      });
    } finally {
      await gateway.stop();
    }
    expect(allSqliteText(join(dataDir, 'events.sqlite'))).not.toContain(SECRET);
    expect(gateway.output()).not.toContain(SECRET);
  });
});
