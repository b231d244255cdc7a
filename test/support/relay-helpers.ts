/** What the relay e2e suites share: channels through the console API, tokens, SDK clients, receipts. */
import OpenAI from 'openai';
import type { RequestRelayed } from '@tollgate/domain';
import type { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { readStoredEvents, waitUntil } from './e2e-helpers';
import type { ConsoleClient } from './test-app';

export type Receipt = RequestRelayed['data'];

/** Adds a channel (the body as the console sends it); resolves once the routing table has it. */
export async function addRelayChannel(
  root: ConsoleClient,
  routing: RoutingTable,
  body: Record<string, unknown>,
): Promise<number> {
  const res = await root.post('/api/channel/', body);
  expect(res.body).toMatchObject({ success: true });
  const id = (res.body.data.ids as number[])[0]!;
  await waitUntil(() => routing.channel(id) !== undefined, 'routing table has the channel');
  return id;
}

/** Creates a token for the signed-in `web` user; its id and key (without `sk-`). */
export async function createRelayToken(
  web: ConsoleClient,
  body: Record<string, unknown>,
): Promise<{ tokenId: number; key: string }> {
  const created = await web.post('/api/token/', body);
  expect(created.body).toMatchObject({ success: true });
  const tokenId = (created.body.data.ids as number[])[0]!;
  const list = (await web.get('/api/token/?p=0&size=100')).body.data as Array<{
    id: number;
    key: string;
  }>;
  return { tokenId, key: list.find((token) => token.id === tokenId)!.key };
}

/** The official SDK pointed at the gateway's relay with this token key. */
export function relaySdk(url: string, key: string): OpenAI {
  return new OpenAI({ apiKey: `sk-${key}`, baseURL: `${url}/v1`, maxRetries: 0 });
}

/** The usage receipts in the event log, of one user when given. */
export function storedReceipts(dataDir: string, userId?: number): Receipt[] {
  return readStoredEvents(dataDir, { type: 'RequestRelayed' })
    .map((event) => event.data as unknown as Receipt)
    .filter((receipt) => userId === undefined || receipt.userId === userId);
}
