import { LogType } from '@tollgate/contracts';
import type { RequestFailed } from '@tollgate/domain';
import type { RecordedEvent } from '@tollgate/event-store';
import { usageReceipt } from '@tollgate/testing';
import { baseRow, consumptionParts, errorRow } from './log-rows';

const recorded = {
  type: 'RequestFailed',
  metadata: { occurredAt: '2026-01-15T08:00:00.000Z', ip: '10.0.0.1' },
} as unknown as RecordedEvent;

const failure: RequestFailed['data'] = {
  requestId: 'req-1',
  userId: 7,
  tokenId: 3,
  tokenName: 'ci',
  group: 'default',
  model: 'gpt-4o',
  channelId: 9,
  channelChain: [4, 9],
  endpoint: '/v1/chat/completions',
  status: 502,
  message: 'upstream said sk-…a1b2 is broken',
  retries: 1,
  useTimeMs: 2400,
  stream: true,
  ip: '10.0.0.1',
  quota: 0,
};

describe('errorRow', () => {
  it('is a type 5 row of no charge whose content is the scrubbed message', () => {
    const row = errorRow(failure, baseRow(42, recorded, 7, 'alice'));
    expect(row).toMatchObject({
      id: 42,
      type: LogType.Error,
      user_id: 7,
      username: 'alice',
      token_name: 'ci',
      token_id: 3,
      model_name: 'gpt-4o',
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: 2,
      is_stream: true,
      channel: 9,
      group: 'default',
      request_id: 'req-1',
      retry: '4,9',
      content: 'upstream said sk-…a1b2 is broken',
    });
    expect(JSON.parse(row.other)).toEqual({
      status_code: 502,
      retries: 1,
      admin_info: { use_channel: [4, 9] },
    });
  });

  it('names no retry for a single attempt', () => {
    const row = errorRow(
      { ...failure, channelChain: [9], retries: 0 },
      baseRow(1, recorded, 7, ''),
    );
    expect(row.retry).toBe('');
  });
});

describe('consumptionParts', () => {
  it('names the model asked for and why a fallback model answered, only when one did', () => {
    const receipt = usageReceipt({ model: 'gpt-4o-mini', channelId: 9, quota: 30 });
    const base = baseRow(5, recorded, 7, 'alice');
    const moved = consumptionParts(
      { ...receipt, channelChain: [4, 9], requestedModel: 'gpt-4o', fallbackReason: 'failed' },
      base,
    );
    expect(moved.row.model_name).toBe('gpt-4o-mini');
    expect(moved.other).toMatchObject({ requested_model: 'gpt-4o', fallback_reason: 'failed' });
    expect(consumptionParts(receipt, base).other).not.toHaveProperty('requested_model');
  });
});
