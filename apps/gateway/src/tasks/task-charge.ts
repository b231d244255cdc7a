import { quotePrice, type RequestRelayed, type TaskPlatform } from '@tollgate/domain';
import type { Caller, RelaySettings } from '../relay/task-relay-port';

/** new-api charges a task model without a configured price this many USD per call. */
const TASK_FALLBACK_PRICE = 0.1;

export interface TaskPrice {
  readonly group: string;
  readonly modelPrice: number;
  readonly groupRatio: number;
  /** Quota units: price × group ratio × QuotaPerUnit (0 for a free action). */
  readonly quota: number;
}

/** A task's per-call price (ModelPrice, else new-api's 0.1) times the group ratio. */
export function priceTask(
  settings: RelaySettings,
  model: string,
  group: string,
  free: boolean,
): TaskPrice {
  const quoted = quotePrice({ ...settings.price, selfUseMode: true }, model, group);
  const groupRatio = quoted.ok ? quoted.quote.groupRatio : 1;
  const modelPrice =
    quoted.ok && quoted.quote.mode === 'price' ? quoted.quote.modelPrice : TASK_FALLBACK_PRICE;
  const quota = free ? 0 : Math.round(modelPrice * groupRatio * settings.price.quotaPerUnit);
  return { group, modelPrice, groupRatio, quota };
}

/** The receipt of a task's charge, appended with its TaskSubmitted. */
export function taskReceipt(input: {
  readonly requestId: string;
  readonly caller: Caller;
  readonly price: TaskPrice;
  readonly model: string;
  readonly channelId: number;
  readonly channelChain: readonly number[];
  readonly endpoint: string;
  readonly startedAt: number;
  readonly ip: string;
  readonly platform: TaskPlatform;
  readonly action: string;
  readonly upstreamTaskId: string;
}): RequestRelayed['data'] {
  const { caller, price } = input;
  return {
    requestId: input.requestId,
    userId: caller.user.id,
    tokenId: caller.token?.id ?? 0,
    tokenName: caller.token?.name ?? '',
    group: price.group,
    model: input.model,
    upstreamModel: input.model,
    channelId: input.channelId,
    channelChain: [...input.channelChain],
    endpoint: input.endpoint,
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    quota: price.quota,
    reserved: price.quota,
    modelRatio: 0,
    completionRatio: 0,
    groupRatio: price.groupRatio,
    cacheRatio: 0,
    modelPrice: price.modelPrice,
    useTimeMs: Date.now() - input.startedAt,
    firstTokenMs: null,
    stream: false,
    estimated: false,
    ip: input.ip,
    task: {
      platform: input.platform,
      action: input.action,
      upstreamTaskId: input.upstreamTaskId,
    },
  };
}
