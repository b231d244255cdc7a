import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import request from 'supertest';
import { STORES } from '../../apps/gateway/src/infrastructure/injection-tokens';
import type { Stores } from '../../apps/gateway/src/infrastructure/open-stores';
import { waitUntil } from '../support/e2e-helpers';
import { startTestApp, tempDataDir } from '../support/test-app';

const ROOT = join(__dirname, '../..');
const MAIN = join(ROOT, 'dist/apps/gateway/src/main.js');

function runMain(env: Record<string, string>) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: tempDataDir(), PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { ...result, ms: Date.now() - started };
}

describe('start-up against production engines that do not answer', () => {
  beforeAll(() => {
    if (!existsSync(MAIN))
      execFileSync('npm', ['run', 'build:server'], { cwd: ROOT, stdio: 'ignore' });
  }, 120_000);

  it('exits at once with one clear line when EventStoreDB is unreachable', () => {
    const result = runMain({ EVENT_STORE_URL: 'esdb://127.0.0.1:1?tls=false' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('EventStoreDB unreachable at esdb://127.0.0.1:1?tls=false');
    expect(result.ms).toBeLessThan(10_000);
  });

  it('exits with one clear line when MongoDB is unreachable', () => {
    const result = runMain({ READ_STORE_URL: 'mongodb://127.0.0.1:1/tollgate' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('MongoDB unreachable at mongodb://127.0.0.1:1/tollgate');
  });

  it('refuses a store URL of the wrong kind instead of falling back to files', () => {
    const result = runMain({ EVENT_STORE_URL: 'http://localhost:2113' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('EVENT_STORE_URL must start with esdb://');
  });
});

describe('cli check-engines', () => {
  const CLI = join(ROOT, 'dist/apps/gateway/src/cli.js');
  const runCli = (env: Record<string, string>) =>
    spawnSync(process.execPath, [CLI, 'check-engines'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: tempDataDir(), ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });

  beforeAll(() => {
    if (!existsSync(CLI))
      execFileSync('npm', ['run', 'build:server'], { cwd: ROOT, stdio: 'ignore' });
  }, 120_000);

  it('says both embedded stores answer', () => {
    const result = runCli({});
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Event store (SQLite) answers; head empty.');
    expect(result.stdout).toContain('Read store (SQLite) answers; atomic transactions: true.');
  });

  it('fails with the start-up line when EventStoreDB does not answer', () => {
    const result = runCli({ EVENT_STORE_URL: 'esdb://127.0.0.1:1?tls=false' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('EventStoreDB unreachable at esdb://127.0.0.1:1?tls=false');
  });
});

describe('the embedded event store loses its writer thread', () => {
  it('the gateway stops serving and leaves a failing exit code (nothing answered unrecorded)', async () => {
    const t = await startTestApp();
    const previousExitCode = process.exitCode;
    try {
      expect((await request(t.url).get('/api/status')).status).toBe(200);
      // Private on purpose: only a test reaches for the thread, to kill it (in the adapter itself:
      // EVENT_STORE is the metered port around it).
      const store = t.app.get<Stores>(STORES).eventStore as unknown as {
        writerInstance: { worker: Worker };
      };
      await store.writerInstance.worker.terminate();
      await waitUntil(
        () =>
          request(t.url)
            .get('/api/status')
            .then(
              () => false,
              () => true,
            ),
        'the gateway to stop listening',
      );
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = previousExitCode;
      await t.close().catch(() => undefined);
    }
  });
});
