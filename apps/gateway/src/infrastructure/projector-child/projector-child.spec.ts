import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Position } from '@tollgate/event-store';
import { ProjectorChild, projectorChildFor } from './projector-child';
import { PROJECTOR_PARENT_ENV } from './projector-child-protocol';
import { projectorNodeFlags } from './projector-node-flags';

/** Resolves once `condition` holds (checked every 10 ms); fails the test after 10 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A stand-in child that reports head n/0 for its n-th `appended` message. */
const ANSWERS_EACH_NUDGE = `let seen = 0;
  process.on('message', (m) => m.type === 'appended' &&
    process.send({ type: 'projector-head', position: ++seen + '/0' }));
  process.on('disconnect', () => process.exit(0));`;

describe('ProjectorChild', () => {
  let dir: string;
  const lines: string[] = [];
  let child: ProjectorChild | undefined;

  /** A stand-in projector: `body` runs in a forked node with the IPC channel. */
  const script = (name: string, body: string): string => {
    const file = join(dir, `${name}.js`);
    writeFileSync(file, body);
    return file;
  };
  const supervise = (file: string) =>
    (child = new ProjectorChild({
      script: file,
      log: (line) => lines.push(line),
      error: (line) => lines.push(`error: ${line}`),
      firstRestartMs: 20,
    }));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-projector-child-'));
    lines.length = 0;
  });
  afterEach(async () => {
    await child?.stop();
    child = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("hands the child's head messages to the listeners, and tells the child its parent", async () => {
    const file = script(
      'heads',
      `process.send({ type: 'projector-head', position: process.env.${PROJECTOR_PARENT_ENV} + '/7' });
       process.send({ type: 'something else', position: '1/1' });
       process.send({ type: 'projector-head', position: 'not a position' });
       process.on('disconnect', () => process.exit(0));`,
    );
    const heads: Position[] = [];
    supervise(file).onHead((position) => heads.push(position));
    child!.start();
    await until(() => heads.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heads).toEqual([{ commit: BigInt(process.pid), prepare: 7n }]);
    expect(lines[0]).toBe(`Projector process started (pid ${child!.pid})`);
  });

  it("starts the child with the projector's node flags, not the gateway's", async () => {
    const seen = join(dir, 'exec-argv.json');
    const file = script(
      'flags',
      `require('node:fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.execArgv));
       process.on('disconnect', () => process.exit(0));`,
    );
    supervise(file).start();
    await until(() => existsSync(seen));
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual(
      projectorNodeFlags(process.env.NODE_OPTIONS),
    );
  });

  it('is ready once the child says it caught up; not before, nor when it never says so', async () => {
    const file = script(
      'ready',
      `setTimeout(() => process.send({ type: 'projector-ready' }), 100);
       process.on('disconnect', () => process.exit(0));`,
    );
    supervise(file).start();
    expect(await child!.ready(20)).toBe(false);
    expect(await child!.ready(5_000)).toBe(true);
  });

  it("tells the child of this process's appends, one message in flight at most", async () => {
    const file = script('appended', ANSWERS_EACH_NUDGE);
    const heads: Position[] = [];
    supervise(file).onHead((position) => heads.push(position));
    child!.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    child!.nudge();
    child!.nudge(); // in flight: coalesced
    await until(() => heads.length === 1);
    child!.nudge();
    await until(() => heads.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heads.map((head) => head.commit)).toEqual([1n, 2n]);
  });

  it('restarts a child that dies, with the reason in the log', async () => {
    const file = script('dies', `setTimeout(() => process.exit(3), 30);`);
    supervise(file).start();
    await until(() => child!.startCount >= 3);
    expect(lines).toContain(
      `error: The projector process (pid ${lines[0]!.match(/pid (\d+)/)![1]}) ended with code 3: restarting it in 20 ms`,
    );
    // The delay doubles from one restart to the next.
    expect(lines.some((line) => line.endsWith('restarting it in 40 ms'))).toBe(true);
  });

  it('stops the child with SIGTERM and starts no other', async () => {
    const file = script(
      'waits',
      `process.on('SIGTERM', () => setTimeout(() => process.exit(0), 20));
       setInterval(() => undefined, 1000);`,
    );
    supervise(file).start();
    const pid = child!.pid!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    await child!.stop();
    expect(alive(pid)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(child!.startCount).toBe(1);
    expect(child!.pid).toBeNull();
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});

describe('projectorChildFor', () => {
  const alone = { projector: 'process', scaleOut: false, projections: 'auto' } as const;

  it('starts a child for a gateway alone on its stores, by default', () => {
    expect(projectorChildFor(alone)).toBeInstanceOf(ProjectorChild);
  });

  it.each([
    ['PROJECTOR=inline', { ...alone, projector: 'inline' }],
    ['scale-out', { ...alone, scaleOut: true }],
    ['PROJECTIONS=on', { ...alone, projections: 'on' }],
    ['PROJECTIONS=off', { ...alone, projections: 'off' }],
  ] as const)('starts none with %s', (_, config) => {
    expect(projectorChildFor(config)).toBeNull();
  });
});
