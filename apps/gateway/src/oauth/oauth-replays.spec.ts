import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_ACTOR } from '@tollgate/domain';
import { SqliteEventStore } from '@tollgate/event-store';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';
import { OAuthReplays } from './oauth-replays';

const meta: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: 'test', lang: 'en' };

/** Each "process" is its own store handle on one SQLite file, as gateways sharing a DATA_DIR. */
describe('OAuthReplays: single use kept in the log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-oauth-marks-'));
  const stores: SqliteEventStore[] = [];
  let file: string;

  const process = () => {
    const store = SqliteEventStore.open(file, { synchronous: 'normal' });
    stores.push(store);
    return { replays: new OAuthReplays(new StreamCommands(store)), store };
  };

  beforeEach(() => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts a value once until it expires, per scope, across processes', async () => {
    const [a, b] = [process(), process()];
    expect(await a.replays.consume('github', 'code', 2000, meta, 1000)).toBe(true);
    expect(await b.replays.consume('github', 'code', 2000, meta, 1500)).toBe(false);
    expect(await b.replays.consume('wechat', 'code', 2000, meta, 1500)).toBe(true);
    // Past its expiry it is forgotten (the provider's code is void by then anyway).
    expect(await b.replays.consume('github', 'code', 4000, meta, 2500)).toBe(true);
    expect(await a.replays.consume('github', 'code', 4000, meta, 3000)).toBe(false);
  });

  it('of concurrent uses on two processes exactly one wins', async () => {
    const [a, b] = [process(), process()];
    const results = await Promise.all(
      [a, b, a, b].map(({ replays }) => replays.consume('state', 's1', 5000, meta, 1000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('a restart forgets nothing, and the value is stored only as a hash', async () => {
    const first = process();
    expect(await first.replays.consume('state', 'state-value-1', 5000, meta, 1000)).toBe(true);
    const restarted = process();
    expect(await restarted.replays.consume('state', 'state-value-1', 5000, meta, 1500)).toBe(false);
    const stream = OAuthReplays.streamOf('state', 'state-value-1');
    const stored = JSON.stringify(
      (await restarted.store.readStream(stream)).map(({ type, data }) => ({ type, data })),
    );
    expect(stored).toContain('OAuthValueSpent');
    expect(stored + stream).not.toContain('state-value-1');
  });
});
