import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT_DIR = join(__dirname, '../..');
/** The built CLI (`npm run build:server`). */
export const CLI = join(ROOT_DIR, 'dist/apps/gateway/src/cli.js');

export interface CliRun {
  /** Exit code; null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** stdout then stderr. */
  readonly out: string;
}

/** `cli.js <args…>` on `dataDir` (LOG_LEVEL warn unless `env` says otherwise), run to its end. */
export function runCli(dataDir: string, args: string[], env: Record<string, string> = {}): CliRun {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT_DIR,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  });
  return { code: res.status, signal: res.signal, out: `${res.stdout}${res.stderr}` };
}

/** `cli.js import <args…>` on `dataDir`. */
export const runImportCli = (
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): CliRun => runCli(dataDir, ['import', ...args], env);
