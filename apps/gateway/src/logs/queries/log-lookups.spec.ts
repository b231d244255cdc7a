import { SqliteReadStore, type ReadStore } from '@tollgate/read-store';
import { CHANNELS } from '../../channels/channel.document';
import { sha256Hex } from '../../infrastructure/secret-box';
import { ApiError } from '../../shared/api-error';
import { TOKENS } from '../../tokens/token.document';
import { USERS } from '../../users/user.document';
import { LOGS, type LogRow } from '../log.document';
import { logStore } from '../log-store';
import { SearchSelfLogsHandler, TokenLogsHandler, selfSearchFilter } from './log-lookups.handler';
import { forAdmins, forSelf } from './log-views';

const row = (id: number, overrides: Partial<LogRow> = {}): LogRow => ({
  id,
  created_at: 1_700_000_000 + id,
  type: 2,
  user_id: 7,
  username: 'alice',
  token_name: 'work',
  model_name: 'gpt-4o-mini',
  quota: 10,
  prompt_tokens: 1,
  completion_tokens: 1,
  use_time: 1,
  is_stream: false,
  channel: 3,
  token_id: 11,
  group: 'default',
  request_id: `req-${id}`,
  retry: '2,3',
  ip: '',
  content: '',
  other: JSON.stringify({ model_ratio: 1, admin_info: { use_channel: [2, 3] } }),
  admin_id: 0,
  ...overrides,
});

const KEY = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL';

describe('log views', () => {
  it("a user's own row shows neither channel id, name, retries nor admin details", () => {
    const own = forSelf(row(1));
    expect(own).toMatchObject({ channel: 0, channel_name: '', retry: '', token_id: 11 });
    expect(own.group).toBe('default');
    expect(JSON.parse(own.other)).toEqual({ model_ratio: 1 });
    expect(own).not.toHaveProperty('_id');
    expect(own).not.toHaveProperty('admin_id');
  });

  describe('with a read store', () => {
    let read: ReadStore;
    beforeEach(async () => {
      read = new SqliteReadStore(':memory:');
      await read.declare([CHANNELS, USERS, TOKENS, LOGS].map((name) => ({ name })));
      await read.collection(CHANNELS).put({ _id: '3', id: 3, name: 'main' });
      await read.collection(USERS).put({ _id: '1', id: 1, username: 'root', status: 1 });
      await read.collection(USERS).put({ _id: '7', id: 7, username: 'alice', status: 1 });
      await read.collection(USERS).put({ _id: '8', id: 8, username: 'banned', status: 2 });
      await read
        .collection(TOKENS)
        .put({ _id: '11', id: 11, user_id: 7, key_hash: sha256Hex(KEY) });
      await read
        .collection(TOKENS)
        .put({ _id: '12', id: 12, user_id: 8, key_hash: sha256Hex('b') });
      for (const doc of [
        row(1),
        row(2, { model_name: 'claude-3-haiku' }),
        row(3, { token_id: 12, user_id: 8, token_name: 'gpt-free' }),
        row(4, { type: 3, channel: 0, token_id: 0, token_name: '', model_name: '', admin_id: 1 }),
      ])
        await logStore(read).put(doc);
    });
    afterEach(() => read.close());

    it("admins see the channel's present name and the editing admin; unknown channels as ''", async () => {
      const rows = await forAdmins(read, [
        row(1),
        row(4, { admin_id: 1, channel: 0, other: '' }),
        row(5, { channel: 9 }),
      ]);
      expect(rows.map((r) => [r.channel, r.channel_name])).toEqual([
        [3, 'main'],
        [0, ''],
        [9, ''],
      ]);
      expect(JSON.parse(rows[1]!.other)).toEqual({
        admin_info: { admin_id: 1, admin_username: 'root' },
      });
    });

    it('searches the own rows by token or model name, case-insensitively, or a type number', async () => {
      const search = (keyword: string, userId = 7) =>
        new SearchSelfLogsHandler(read)
          .execute({ userId, keyword } as never)
          .then((rows) => rows.map((r) => r.id));
      expect(await search('CLAUDE')).toEqual([2]);
      expect(await search('wor')).toEqual([2, 1]);
      expect(await search('gpt')).toEqual([1]); // user 8's gpt-free is not alice's
      expect(await search('3')).toEqual([4, 2]); // type 3, and claude-3's name
      expect(await search('')).toEqual([4, 2, 1]);
      expect(await search('.*')).toEqual([]);
      expect(selfSearchFilter(7, ' 9 ')).toMatchObject({ user_id: 7 });
    });

    it("a token's key reads that token's rows alone, as its owner sees them", async () => {
      const byKey = (key: string) => new TokenLogsHandler(read).execute({ key } as never);
      for (const key of [`sk-${KEY}`, KEY, `Bearer sk-${KEY}`, `sk-${KEY}-3`]) {
        const rows = await byKey(key);
        expect(rows.map((r) => [r.id, r.token_id, r.channel, r.channel_name])).toEqual([
          [2, 11, 0, ''],
          [1, 11, 0, ''],
        ]);
      }
    });

    it.each(['', 'sk-', `sk-${KEY}x`, 'Bearer ', '-3'])('refuses the key %j', async (key) => {
      await expect(new TokenLogsHandler(read).execute({ key } as never)).rejects.toEqual(
        new ApiError('log.token_invalid'),
      );
    });

    it("refuses a banned user's key", async () => {
      await expect(new TokenLogsHandler(read).execute({ key: 'sk-b' } as never)).rejects.toEqual(
        new ApiError('log.user_banned'),
      );
    });
  });
});
