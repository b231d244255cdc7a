/**
 * `node dist/test/bench/console-reads.measure.js [users]` (after `npm run bench -- --quick` built it):
 * the user search of the console at scale, store level, before and after the read-side fix. "Before"
 * runs the SQL the old adapter ran (a JavaScript regexp() per row and field, on the caller's thread)
 * on a connection of this thread; "after" goes through SqliteReadStore (trigram index, instr(), read
 * pool). For each: the query time and the longest the event loop was blocked meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteReadStore } from '@tollgate/read-store';
import { registerRegexp } from '@tollgate/read-store/sqlite/regexp-function';
import { usersProjection } from '../../apps/gateway/src/users/users.projection';
import { userSearchFilter } from '../../apps/gateway/src/users/queries/list-users.handler';

const USERS = Number(process.argv[2] ?? 200_000);

async function withLoopWatch<T>(
  fn: () => Promise<T> | T,
): Promise<{ ms: number; blockedMs: number; result: T }> {
  let last = performance.now();
  let blocked = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    blocked = Math.max(blocked, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const result = await fn();
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 2));
  clearInterval(timer);
  blocked = Math.max(blocked, performance.now() - last);
  return { ms, blockedMs: blocked, result };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-reads-'));
  const file = join(dir, 'read.sqlite');
  const store = new SqliteReadStore(file);
  try {
    await store.declare(usersProjection.collections);
    const t0 = Date.now();
    for (let from = 0; from < USERS; from += 20_000) {
      await store.transaction(async (session) => {
        const users = session.collection('users');
        for (let i = from; i < Math.min(USERS, from + 20_000); i++) {
          const id = 1_000_000 + i;
          const name = `user${id.toString(36)}`;
          await users.put({
            _id: String(id),
            id,
            username: name,
            username_lower: name,
            display_name: `Name ${id}`,
            email: `${name}@example.com`,
            group: 'default',
          });
        }
      });
    }
    process.stdout.write(`${USERS} users written in ${Date.now() - t0} ms\n`);
    const old = new Database(file, { readonly: true });
    registerRegexp(old);
    const oldSql = (where: string) =>
      `SELECT id, doc FROM users WHERE ${where} ORDER BY json_extract(doc, '$.id') DESC LIMIT 10`;
    const field = (f: string) =>
      `(json_type(doc, '$.${f}') = 'text' AND regexp(?, 'i', json_extract(doc, '$.${f}')))`;
    const oldWhere = `(${field('username')} OR ${field('display_name')} OR ${field('email')})`;
    for (const term of [
      'user' + (1_000_000 + Math.floor(USERS / 2)).toString(36).slice(0, 3),
      'zq',
    ]) {
      const before = await withLoopWatch(() => {
        const rows = old.prepare(oldSql(oldWhere)).all(term, term, term);
        const total = old
          .prepare(`SELECT COUNT(*) AS n FROM users WHERE ${oldWhere}`)
          .get(term, term, term);
        return { rows: rows.length, total };
      });
      const users = store.collection('users');
      const filter = userSearchFilter(term, '', { id: 1, role: 100 }); // root sees every user
      const after = await withLoopWatch(async () => {
        const [rows, total] = await Promise.all([
          users.find(filter, { sort: { id: -1 }, limit: 10 }),
          users.count(filter),
        ]);
        return { rows: rows.length, total };
      });
      process.stdout.write(
        `search "${term}": before ${before.ms.toFixed(1)} ms (loop blocked ${before.blockedMs.toFixed(1)} ms, total ${JSON.stringify(before.result.total)}); ` +
          `after ${after.ms.toFixed(1)} ms (loop blocked ${after.blockedMs.toFixed(1)} ms, total ${after.result.total})\n`,
      );
    }
    const page = await withLoopWatch(() =>
      store
        .collection('users')
        .find({}, { sort: { id: -1 }, skip: Math.floor(USERS / 2), limit: 10 }),
    );
    const count = await withLoopWatch(() => store.collection('users').count());
    process.stdout.write(
      `deep page (skip ${Math.floor(USERS / 2)}): ${page.ms.toFixed(1)} ms, loop blocked ${page.blockedMs.toFixed(1)} ms; count(): ${count.ms.toFixed(1)} ms\n`,
    );
    old.close();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
