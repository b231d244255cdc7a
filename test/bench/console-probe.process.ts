/**
 * S8's console reader as its own process (started by the harness while the relay load runs): an
 * administrator signed in, who searches users, pages users and logs (shallow and deep), filters
 * logs by user and asks the log stats, one call after the other, timing each. It runs apart from
 * the load generator so the generator's work is not counted as the console's latency.
 *
 * argv: gateway url, number of seeded users, seconds. Prints one line of JSON `{kind: ms[]}`.
 */
import { ApiSession } from './bench-setup';
import { USERNAME_WORDS } from './bench-shared';

/** In the order the report lists them. */
const KINDS = [
  'user search',
  'user search (2 letters)',
  'user page',
  'user deep page',
  'log page',
  'log deep page',
  'log page of one user',
  'log stat (all rows)',
  'log stat (one user)',
] as const;

async function main(): Promise<void> {
  const [url, usersText, secondsText] = process.argv.slice(2);
  const users = Number(usersText);
  const end = Date.now() + Number(secondsText) * 1000;
  const admin = await new ApiSession(url!).login('root', '123456');
  const timings: Record<string, number[]> = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  const time = async (kind: (typeof KINDS)[number], path: string) => {
    const t0 = performance.now();
    await admin.call('GET', path);
    timings[kind]!.push(performance.now() - t0);
  };
  const pages = Math.floor(users / 10);
  for (let i = 0; Date.now() < end; i++) {
    const id = 1_000_000 + Math.floor(Math.random() * users);
    // A username fragment: first word + 3 characters of the base-36 id (a few matches each).
    const term = `${USERNAME_WORDS[(id - 1_000_000) % 10]}${id.toString(36).slice(0, 3)}`;
    await time('user search', `/api/user/search?keyword=${term}&p=1&page_size=10`);
    await time('user page', `/api/user/?p=${1 + (i % 20)}&page_size=10`);
    await time(
      'user deep page',
      `/api/user/?p=${1 + Math.floor(Math.random() * pages)}&page_size=10`,
    );
    await time('log page', `/api/log/?p=${1 + (i % 20)}&page_size=10`);
    await time(
      'log deep page',
      `/api/log/?p=${1 + Math.floor(Math.random() * pages)}&page_size=10`,
    );
    await time('log page of one user', `/api/log/?p=1&page_size=10&username=u${id}`);
    await time('log stat (one user)', `/api/log/stat?username=u${id}`);
    if (i % 5 === 0) {
      await time('user search (2 letters)', `/api/user/search?keyword=zq&p=1&page_size=10`);
      await time('log stat (all rows)', `/api/log/stat`);
    }
  }
  process.stdout.write(`${JSON.stringify(timings)}\n`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
