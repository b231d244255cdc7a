import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';

/** The lock modules, compiled to CommonJS so a plain `node` child process can load them. */
const MODULES = ['sqlite-file-lock', 'data-dir-lock', 'lock-election'];

const DRIVER = `
const [kind, target, mode] = process.argv.slice(2);
const say = (line) => process.stdout.write(JSON.stringify(line) + '\\n');
setInterval(() => undefined, 60_000); // lives until killed
if (kind === 'data-dir') {
  try {
    require('./data-dir-lock.js').DataDirLock.acquire(target, mode);
    say({ locked: true });
  } catch (error) {
    say({ error: error.message });
  }
} else {
  const { LockElection } = require('./lock-election.js');
  const election = new LockElection(target, (error) => say({ error: error.message }), 50);
  election.onWon(() => say({ won: true }));
  election.start();
  say({ started: true, held: election.held });
}
`;

let compiled: string | undefined;

function compile(): string {
  if (compiled) return compiled;
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-lock-child-'));
  for (const name of MODULES) {
    const source = readFileSync(join(__dirname, `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
    });
    writeFileSync(join(dir, `${name}.js`), outputText);
  }
  writeFileSync(join(dir, 'driver.js'), DRIVER);
  compiled = dir;
  return dir;
}

export interface LockHolder {
  readonly child: ChildProcess;
  /** Every JSON line the child printed so far. */
  readonly lines: Array<Record<string, unknown>>;
  /** Resolves with the first line that `match` accepts (rejects after `timeoutMs`). */
  next(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<void>;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
}

/** Another OS process that takes a DATA_DIR lock (`data-dir`) or runs an election (`election`). */
export function spawnLockHolder(
  kind: 'data-dir' | 'election',
  target: string,
  mode?: string,
): LockHolder {
  const dir = compile();
  const child = spawn(process.execPath, [join(dir, 'driver.js'), kind, target, mode ?? ''], {
    cwd: dir,
    env: { ...process.env, NODE_PATH: resolve(__dirname, '../../../../node_modules') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let buffered = '';
  const changed = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) if (part) lines.push(JSON.parse(part) as Record<string, unknown>);
    for (const listener of [...changed]) listener();
  });
  return {
    child,
    lines,
    next: (match, timeoutMs = 10_000) =>
      new Promise<void>((done, fail) => {
        const check = () => {
          if (!lines.some(match)) return;
          changed.delete(check);
          clearTimeout(timer);
          done();
        };
        const timer = setTimeout(() => {
          changed.delete(check);
          fail(new Error(`child printed ${JSON.stringify(lines)}`));
        }, timeoutMs);
        timer.unref(); // a wait the test gave up on (a lost race) must not hold jest open
        changed.add(check);
        check();
      }),
    kill: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGKILL');
      }),
  };
}
