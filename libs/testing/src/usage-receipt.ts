import { randomUUID } from 'node:crypto';
import type { RequestRelayed } from '@tollgate/domain';

/**
 * A complete RequestRelayed receipt for tests: every field a projection or the balance book reads
 * is set, so a spec names only the fields its assertions depend on. `upstreamModel` follows
 * `model`, `channelChain` follows `channelId` and `reserved` follows `quota` unless given.
 */
export function usageReceipt(fields: Partial<RequestRelayed['data']> = {}): RequestRelayed['data'] {
  const model = fields.model ?? 'gpt-4o-mini';
  const channelId = fields.channelId ?? 1;
  const quota = fields.quota ?? 0;
  return {
    requestId: randomUUID(),
    userId: 1,
    tokenId: 1,
    tokenName: 't',
    group: 'default',
    model,
    upstreamModel: model,
    channelId,
    channelChain: [channelId],
    endpoint: '/v1/chat/completions',
    promptTokens: 10,
    completionTokens: 5,
    cachedTokens: 0,
    quota,
    reserved: quota,
    modelRatio: 1,
    completionRatio: 1,
    groupRatio: 1,
    cacheRatio: 1,
    modelPrice: -1,
    useTimeMs: 10,
    firstTokenMs: null,
    stream: false,
    estimated: false,
    ip: '127.0.0.1',
    ...fields,
  };
}
