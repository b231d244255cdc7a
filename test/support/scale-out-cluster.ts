import { request } from 'undici';
import { waitUntil } from './e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from './gateway-http';
import { startGateway, type RunningGateway } from './start-gateway';
import { tempDataDir } from './test-app';

/** Several gateway processes on one DATA_DIR (SCALE_OUT=on), as the scale-out e2e suites run them. */
export interface ScaleOutCluster {
  readonly dataDir: string;
  readonly gateways: readonly RunningGateway[];
  readonly root: GatewaySession;
  stop(): Promise<void>;
}

/**
 * Starts `count` processes on a fresh DATA_DIR with `env`: the first alone (it bootstraps root),
 * the others together, joining it; signs root in.
 */
export async function startScaleOutCluster(
  env: Record<string, string>,
  count = 3,
): Promise<ScaleOutCluster> {
  const dataDir = tempDataDir();
  const gateways: RunningGateway[] = [await startGateway({ dataDir, env })];
  gateways.push(
    ...(await Promise.all(Array.from({ length: count - 1 }, () => startGateway({ dataDir, env })))),
  );
  const root = await gatewayLogin(gateways[0]!.url, 'root', '123456');
  return {
    dataDir,
    gateways,
    root,
    stop: async () => {
      await Promise.all(gateways.map((gateway) => gateway.stop()));
    },
  };
}

export async function setOption(
  url: string,
  root: GatewaySession,
  key: string,
  value: string,
): Promise<void> {
  await gatewayApi(url, '/api/option/', { method: 'PUT', body: { key, value }, ...root });
}

/**
 * Every process learns of a new key from its cache feed, a few ms after the one that wrote it
 * (and with it of what came before it in the log): wait until each one knows the key.
 */
export async function knownEverywhere(
  gateways: readonly RunningGateway[],
  key: string,
): Promise<void> {
  for (const gateway of gateways)
    await waitUntil(async () => {
      const res = await request(`${gateway.url}/v1/models`, {
        headers: { authorization: `Bearer sk-${key}` },
      });
      await res.body.dump();
      return res.statusCode === 200;
    }, `${gateway.url} knows the new key`);
}

/** One chat completion of `model` with `key`: its HTTP status. */
export async function chatStatus(url: string, key: string, model: string): Promise<number> {
  const res = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'x' }] }),
  });
  await res.body.dump();
  return res.statusCode;
}
