import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, type Target } from './bench-load';
import { type Running, sleep, startBenchGateway } from './bench-processes';
import { type BenchAccount, setUpAccount } from './bench-setup';
import { CHAT_BODY } from './bench-shared';
import { releaseProjector } from './projector-child';

/** How startBenchGateway starts it, less what this sets (the data directory, CPU 0). */
type GatewayOptions = Omit<Parameters<typeof startBenchGateway>[0], 'dataDir' | 'cpu'>;

/** A gateway the A/B measures run against: set up, its caches filled, its JIT warm. */
export interface WarmGateway {
  readonly gateway: Running;
  readonly dataDir: string;
  readonly relayPid: number;
  readonly projectorPid: number | null;
  readonly account: BenchAccount;
  /** The chat load's target: the gateway with the load token. */
  readonly target: Target;
}

/**
 * Runs `measure` against a fresh gateway (this checkout's build, or `script`'s) on CPU 0, its
 * projector child on every core, after the bench's set-up and a 3 s warm-up at 16 connections;
 * stops it and removes its data directory afterwards.
 */
export async function withWarmGateway<T>(
  options: GatewayOptions & { upstreamUrl: string },
  measure: (warm: WarmGateway) => Promise<T>,
): Promise<T> {
  const { upstreamUrl, ...start } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-measure-'));
  const gateway = await startBenchGateway({ ...start, cpu: '0', dataDir });
  try {
    const relayPid = gateway.child.pid ?? 0;
    const projectorPid = await releaseProjector(relayPid);
    const account = await setUpAccount(gateway.url, upstreamUrl);
    const target: Target = {
      url: gateway.url,
      headers: { authorization: `Bearer ${account.key}` },
    };
    await sleep(1000); // the tokens reach the relay's caches
    await load(target, { body: CHAT_BODY, connections: 16, seconds: 3 }); // warm-up
    return await measure({ gateway, dataDir, relayPid, projectorPid, account, target });
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
