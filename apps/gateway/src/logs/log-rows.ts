/**
 * The log row of each balance-changing event, worded as one-api and new-api word theirs (the
 * console and the clients that read `content` and `other` expect those texts and keys).
 */
import { eventTimeMs, type RecordedEvent } from '@tollgate/event-store';
import { LogType } from '@tollgate/contracts';
import {
  taskRefundLogText,
  type BillingEvent,
  type LogImported,
  type QuotaGranted,
  type RequestFailed,
  type RequestRelayed,
  type TaskRefunded,
} from '@tollgate/domain';
import type { LogRow, LogRowParts } from './log.document';
import { LOG_ROW_DEFAULTS } from './stored-log';

/**
 * The fields every row shares, as a system row of nothing: each event's row overrides some. One
 * literal of every field, not a spread of the defaults with fields added after it: that cost
 * ~8 µs a row (a new object shape per added field), on the projector's path for every receipt.
 */
export function baseRow(
  id: number,
  recorded: RecordedEvent,
  userId: number,
  username: string,
): LogRow {
  const d = LOG_ROW_DEFAULTS;
  return {
    id,
    created_at: seconds(recorded),
    type: LogType.System,
    user_id: userId,
    username,
    token_name: d.token_name,
    model_name: d.model_name,
    quota: d.quota,
    prompt_tokens: d.prompt_tokens,
    completion_tokens: d.completion_tokens,
    use_time: d.use_time,
    is_stream: d.is_stream,
    channel: d.channel,
    token_id: d.token_id,
    group: d.group,
    request_id: d.request_id,
    retry: d.retry,
    ip: typeof recorded.metadata['ip'] === 'string' ? recorded.metadata['ip'] : '',
    content: d.content,
    other: '',
    admin_id: d.admin_id,
  };
}

const seconds = (event: RecordedEvent): number => Math.floor(eventTimeMs(event) / 1000);

/** A billing event's row; null for those that change no balance the log shows. */
export function billingRow(
  event: BillingEvent,
  base: LogRow,
  recorded: RecordedEvent,
): LogRow | null {
  switch (event.type) {
    case 'QuotaGranted':
      return grantRow(event.data, base);
    case 'InviterRewarded':
      return {
        ...base,
        quota: event.data.amount,
        content: `邀请用户赠送 ${event.data.amount} 额度（待划转）`,
      };
    case 'AffQuotaTransferred':
      return {
        ...base,
        quota: event.data.amount,
        content: `邀请额度划转 ${event.data.amount} 到余额`,
      };
    case 'BudgetSet':
      return null; // not a balance change: the audit history lists it (docs/budgets.md)
    case 'BalanceImported':
      return null; // an opening balance, not a log row (the source's logs are imported as rows)
    case 'QuotaAdjusted': {
      const actor = recorded.metadata['actor'] as { id?: number | null } | undefined;
      return {
        ...base,
        type: LogType.Manage,
        quota: event.data.delta,
        content: `管理员将用户额度从 ${event.data.from} 修改为 ${event.data.to}`,
        admin_id: typeof actor?.id === 'number' ? actor.id : 0,
      };
    }
  }
}

/** Redemptions and top-ups are top-up rows; the sign-up and invitation gifts are system rows. */
function grantRow(d: QuotaGranted['data'], base: LogRow): LogRow {
  const { amount, reason, reference } = d;
  if (reason === 'redemption')
    return {
      ...base,
      type: LogType.TopUp,
      quota: amount,
      content: `通过兑换码充值 ${amount} 额度${reference ? `（${reference}）` : ''}`,
    };
  if (reason === 'topup')
    return { ...base, type: LogType.TopUp, quota: amount, content: `充值 ${amount} 额度` };
  if (reason === 'new_user')
    return { ...base, quota: amount, content: `新用户注册赠送 ${amount} 额度` };
  if (reason === 'root_start')
    return { ...base, quota: amount, content: `root 账户初始额度 ${amount}` };
  return { ...base, quota: amount, content: `使用邀请码赠送 ${amount} 额度` };
}

/** The fields a consumption row and an error row both take from their call. */
function callRowFields(
  d: Pick<
    RequestRelayed['data'],
    'useTimeMs' | 'stream' | 'channelId' | 'tokenId' | 'group' | 'requestId' | 'channelChain' | 'ip'
  >,
): Partial<LogRow> {
  return {
    use_time: Math.round(d.useTimeMs / 1000),
    is_stream: d.stream,
    channel: d.channelId,
    token_id: d.tokenId,
    group: d.group,
    request_id: d.requestId,
    retry: d.channelChain.length > 1 ? d.channelChain.join(',') : '',
    ip: d.ip,
  };
}

/** A usage receipt's consumption row, `other` as its object (the stored row packs it). */
export function consumptionParts(d: RequestRelayed['data'], base: LogRow): LogRowParts {
  const row: Omit<LogRow, 'other'> = {
    ...base,
    type: LogType.Consume,
    token_name: d.tokenName,
    model_name: d.model,
    quota: d.quota,
    prompt_tokens: d.promptTokens,
    completion_tokens: d.completionTokens,
    ...callRowFields(d),
    content: d.task ? taskChargeLogText(d, d.task) : '',
  };
  return { row, other: consumptionOther(d) };
}

/**
 * The row's `other`: the ratios the price was computed with, and what happened to the ceiling.
 * Built field by field in the order clients see (no spreads of conditional parts: this runs for
 * every receipt the projector writes).
 */
function consumptionOther(d: RequestRelayed['data']): Record<string, unknown> {
  const other: Record<string, unknown> = {};
  if (d.firstTokenMs !== null) other['frt'] = d.firstTokenMs;
  other['model_ratio'] = d.modelRatio;
  other['completion_ratio'] = d.completionRatio;
  other['group_ratio'] = d.groupRatio;
  other['model_price'] = d.modelPrice;
  other['cache_ratio'] = d.cacheRatio;
  // one-api's and new-api's names for the cache counts; only when there were any (most calls).
  if (d.cachedTokens > 0) other['cache_tokens'] = d.cachedTokens;
  if (d.cacheCreationTokens) {
    other['cache_creation_tokens'] = d.cacheCreationTokens;
    other['cache_creation_ratio'] = d.cacheCreationRatio;
  }
  if (d.reasoningTokens) other['reasoning_tokens'] = d.reasoningTokens;
  // The output ceiling's story: lowered to what the payer could afford, ignored by the
  // upstream, the stream cut at its reservation, the cost past the reservation (a debt).
  if (d.loweredCeiling !== undefined) {
    other['lowered_ceiling'] = d.loweredCeiling;
    other['lowered_by'] = d.loweredBy;
  }
  if (d.ceilingIgnored) other['ceiling_ignored'] = true;
  if (d.streamCut) other['stream_cut'] = true;
  if (d.overrun) other['overrun'] = d.overrun;
  // The channel's parameter override: which members it set (their values stay in the channel).
  if (d.paramOverride) other['param_override'] = [...d.paramOverride];
  // A fallback model answered (the row's model): the one asked for and why it moved on.
  if (d.requestedModel) {
    other['requested_model'] = d.requestedModel;
    other['fallback_reason'] = d.fallbackReason;
  }
  other['admin_info'] = { use_channel: d.channelChain };
  return other;
}

/** new-api's content of a task's charge row (`%.2f`); Suno's names no task id. */
function taskChargeLogText(
  d: Pick<RequestRelayed['data'], 'modelPrice' | 'groupRatio'>,
  task: NonNullable<RequestRelayed['data']['task']>,
): string {
  const text = `模型固定价格 ${d.modelPrice.toFixed(2)}，分组倍率 ${d.groupRatio.toFixed(2)}，操作 ${task.action}`;
  return task.platform === 'midjourney' ? `${text}，ID ${task.upstreamTaskId}` : text;
}

/**
 * A failed call's error row (new-api's type 5): no charge, `content` the upstream's message (keys
 * masked), `other` the status the client got and the channels tried.
 */
export function errorRow(d: RequestFailed['data'], base: LogRow): LogRow {
  return {
    ...base,
    type: LogType.Error,
    token_name: d.tokenName,
    model_name: d.model,
    quota: 0,
    ...callRowFields(d),
    content: d.message,
    other: JSON.stringify({
      status_code: d.status,
      retries: d.retries,
      admin_info: { use_channel: d.channelChain },
    }),
  };
}

/** A task refund: a system row naming the model, its quota given back. */
export function refundRow(d: TaskRefunded['data'], base: LogRow): LogRow {
  return {
    ...base,
    type: LogType.System,
    model_name: d.model,
    channel: d.channelId,
    quota: d.quota,
    content: taskRefundLogText(d),
  };
}

/** An imported row as the source wrote it: its time, its username, its figures. */
export function importedRow(id: number, d: LogImported['data']): LogRow {
  return {
    id,
    created_at: d.createdAt,
    type: d.type as LogRow['type'],
    user_id: d.userId,
    username: d.username,
    token_name: d.tokenName,
    model_name: d.modelName,
    quota: d.quota,
    prompt_tokens: d.promptTokens,
    completion_tokens: d.completionTokens,
    use_time: d.useTime,
    is_stream: d.isStream,
    channel: d.channelId,
    token_id: d.tokenId,
    group: d.group,
    request_id: d.requestId,
    retry: '',
    ip: '',
    content: d.content,
    other: d.other,
    admin_id: 0,
  };
}
