import type { ChannelDto } from '@tollgate/contracts';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { CHANNEL_MESSAGES } from '../../apps/gateway/src/channels/channels.messages';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { expectFailure, expectSuccess, readStoredEvents, waitUntil } from '../support/e2e-helpers';
import { addRelayChannel } from '../support/relay-helpers';
import {
  type ConsoleClient,
  createAdmin,
  loginRoot,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

/**
 * An administrator must not collect root's provider keys by aiming a channel at their own server:
 * changing a channel's type, base URL or `other` needs the key entered in the same update, unless
 * root edits. A refused update records nothing, and tests and balance queries go only where the
 * stored channel says.
 */
describe('who may send a stored channel key somewhere else', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  /** The administrator's own server: it must never see root's key. */
  let collector: MockUpstream;
  let root: ConsoleClient;
  let admin: ConsoleClient;
  let table: RoutingTable;
  const ROOT_KEY = 'sk-root-provider-key-0123456789abcdef';
  const REFUSAL = CHANNEL_MESSAGES['channel.key_required_for_target_change']!['zh-CN'];

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    collector = await MockUpstream.start();
    t = await startTestApp();
    table = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    admin = await createAdmin(t.url, root, 'keyadmin');
  });

  afterAll(async () => {
    await t.close();
    await upstream.close();
    await collector.close();
  });

  const rootChannel = (name: string) =>
    addRelayChannel(root, table, {
      type: 1,
      name,
      key: ROOT_KEY,
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
  const channel = async (id: number) =>
    (await admin.get(`/api/channel/${id}`)).body.data as ChannelDto;
  const updates = (id: number) =>
    readStoredEvents(t.dataDir, { streamId: `channel-${id}`, type: 'ChannelUpdated' }).length;
  /** The admin presses test, balance and fetch-models: each goes where the stored channel says. */
  const pressEverything = async (id: number) => {
    await admin.get(`/api/channel/test/${id}`);
    await admin.get(`/api/channel/update_balance/${id}`);
    await admin.get(`/api/channel/fetch_models/${id}`);
  };

  it.each([
    ['base_url', { base_url: '' }],
    ['type', { type: 8 }],
    ['other', { other: 'collector-account' }],
  ])(
    "an admin's %s change without the key is refused; nothing changes, nothing leaves",
    async (_, change) => {
      const id = await rootChannel(`rooted-${Object.keys(change)[0]}`);
      const before = await channel(id);
      const updatesBefore = updates(id);
      const aimed = { ...change, ...('base_url' in change ? { base_url: collector.url } : {}) };

      // As the API takes it, and as the console's edit form sends it (the whole record, key empty).
      expectFailure(await admin.put('/api/channel/', { id, ...aimed }), REFUSAL);
      expectFailure(await admin.put('/api/channel/', { ...before, ...aimed, key: '' }), REFUSAL);
      expectFailure(await admin.put('/api/channel/', { id, ...aimed, key: '   ' }), REFUSAL);

      expect(updates(id)).toBe(updatesBefore);
      expect(await channel(id)).toEqual(before);
      collector.reset();
      upstream.reset();
      await pressEverything(id);
      expect(collector.requests).toEqual([]);
      expect(upstream.requests.map((r) => r.key)).toContain(ROOT_KEY);
    },
  );

  it("a copy of root's channel holds its key: the same rule applies to it", async () => {
    const id = await rootChannel('copied');
    const copied = await admin.post(`/api/channel/copy/${id}`);
    expectSuccess(copied);
    const copy = copied.body.data.id as number;
    expectFailure(await admin.put('/api/channel/', { id: copy, base_url: collector.url }), REFUSAL);
    collector.reset();
    await waitUntil(() => table.channel(copy) !== undefined, 'the copy is routed');
    await pressEverything(copy);
    expect(collector.requests).toEqual([]);
  });

  it('with a key entered in the same update the admin may aim it anywhere: their key goes there', async () => {
    const id = await rootChannel('rekeyed');
    const adminKey = 'sk-admin-own-key-0123456789abcdef';
    expectSuccess(await admin.put('/api/channel/', { id, base_url: collector.url, key: adminKey }));
    expect(await channel(id)).toMatchObject({ base_url: collector.url });
    collector.reset();
    await waitUntil(() => table.channel(id)?.baseUrl === collector.url, 'routed to the collector');
    await admin.get(`/api/channel/test/${id}`);
    expect(collector.requests.map((r) => r.key)).toEqual([adminKey]);
  });

  it('other fields need no key; root may keep the stored key when changing the base URL', async () => {
    const id = await rootChannel('root-moves');
    expectSuccess(await admin.put('/api/channel/', { id, name: 'renamed', priority: 3 }));
    expectSuccess(await root.put('/api/channel/', { id, base_url: collector.url }));
    await waitUntil(() => table.channel(id)?.baseUrl === collector.url, 'routed to the collector');
    collector.reset();
    await root.get(`/api/channel/test/${id}`);
    expect(collector.requests.map((r) => r.key)).toEqual([ROOT_KEY]);
  });
});
