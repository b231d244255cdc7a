import type { Logger } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { PriceQuote } from '@tollgate/domain';
import type { TokenLimiter, UserRequestLimiter } from '@tollgate/relay';
import { newRelayTrace } from '../observability/request-record';
import type { Answered, Prepared, RelayCall } from './relay-call';
import type { RelayCommandsPort, RoutedChannel, UsageAppenderPort } from './relay-ports';
import { Settlement } from './settlement';

const quote: PriceQuote = {
  mode: 'ratio',
  model: 'gpt-4o-mini',
  group: 'default',
  modelRatio: 1,
  completionRatio: 1,
  groupRatio: 1,
  cacheRatio: 1,
  cacheCreationRatio: 1,
  modelPrice: -1,
};

const prepared = {
  call: {
    route: '/v1/chat/completions',
    endpoint: 'chat',
    lang: 'en',
    ip: '10.0.0.1',
    requestId: 'r1',
    correlationId: 'r1',
    startedAt: 1_000,
    playground: false,
    trace: newRelayTrace(3),
    caller: {
      user: { id: 7, username: 'u', status: 1, role: 1, group: 'default' },
      token: { id: 3, name: 'ci', unlimitedQuota: true },
      pinnedChannelId: undefined,
    },
  } as unknown as RelayCall,
  quote,
  group: 'default',
  facts: { model: 'gpt-4o-mini', n: 1 },
  chain: [5],
  choices: 1,
  reservation: { requestId: 'r1', userId: 7, tokenId: 3, amount: 500 },
  settings: { price: { quotaPerUnit: 500_000 }, providers: { passThrough: false } },
} as unknown as Prepared;

const answered: Answered = {
  prepared,
  channel: { id: 5, paramOverride: {} } as unknown as RoutedChannel,
  upstreamModel: 'gpt-4o-mini',
  usage: { promptTokens: 10, completionTokens: 90, cachedTokens: 0 },
  estimated: false,
  firstAt: 1_250,
  stream: false,
};

/** What happened, in order: the answer sent, the call charged, its receipt appended. */
function settlementWith(strict: boolean, receipt: Promise<unknown>) {
  const steps: string[] = [];
  const book = {
    settle: () => {
      steps.push('charged');
      return 100;
    },
    tokenSettledRemaining: () => undefined,
  };
  const appender = {
    append: () => {
      steps.push('appended');
      return receipt;
    },
  } as unknown as UsageAppenderPort;
  const limiter = { consumed: () => undefined, succeeded: () => undefined };
  const logger = { error: () => undefined, warn: () => undefined } as unknown as Logger;
  const settlement = new Settlement(
    book,
    appender,
    {} as RelayCommandsPort,
    limiter as unknown as TokenLimiter,
    limiter as unknown as UserRequestLimiter,
    strict,
    logger,
  );
  return { settlement, steps };
}

/** A response the error path can write to: what it was sent is kept. */
function fakeResponse() {
  const written: { status?: number; body?: string } = {};
  const res = {
    headersSent: false,
    destroyed: false,
    writeHead(status: number) {
      written.status = status;
      return res;
    },
    end(body: string) {
      written.body = body;
    },
    destroy() {},
  };
  return { res: res as unknown as ServerResponse, written };
}

describe('Settlement.answer', () => {
  it('when batched, then the answer goes first and the call is charged in the same run', () => {
    const { settlement, steps } = settlementWith(false, Promise.resolve());
    const { res } = fakeResponse();
    void settlement.answer(prepared, res, answered, () => steps.push('sent'));
    // Nothing awaited yet: no other request could have run between the answer and its charge.
    expect(steps).toEqual(['sent', 'charged', 'appended']);
  });

  it('when batched and the answer fails to go out, then the call is still charged', async () => {
    const { settlement, steps } = settlementWith(false, Promise.resolve());
    const { res } = fakeResponse();
    const sending = settlement.answer(prepared, res, answered, () => {
      throw new Error('socket gone');
    });
    await expect(sending).rejects.toThrow('socket gone');
    expect(steps).toEqual(['charged', 'appended']);
  });

  it('when strict, then the answer waits for the receipt to be committed', async () => {
    let commit: () => void = () => undefined;
    const receipt = new Promise<void>((resolve) => (commit = resolve));
    const { settlement, steps } = settlementWith(true, receipt);
    const { res } = fakeResponse();
    const sending = settlement.answer(prepared, res, answered, () => steps.push('sent'));
    await Promise.resolve();
    expect(steps).toEqual(['charged', 'appended']);
    commit();
    await sending;
    expect(steps).toEqual(['charged', 'appended', 'sent']);
  });

  it('when strict and the receipt fails, then the answer is not given: an error instead', async () => {
    const { settlement, steps } = settlementWith(true, Promise.reject(new Error('disk full')));
    const { res, written } = fakeResponse();
    await settlement.answer(prepared, res, answered, () => steps.push('sent'));
    expect(steps).toEqual(['charged', 'appended']);
    expect(written.status).toBe(500);
    expect(JSON.parse(written.body ?? '{}')).toMatchObject({ error: { code: 'internal' } });
  });
});
