import { LeaseElection } from './election/lease-election';
import type { LeasePort } from './election/lease.port';
import { MemoryLease } from './election/memory-lease';
import { SchedulerGate } from './scheduler-gate';

const TTL = 300;

describe('SchedulerGate', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('alone: starts at once and always lets the jobs run', () => {
    const gate = new SchedulerGate(null);
    const start = jest.fn();
    gate.whenElected(start);
    expect(start).toHaveBeenCalledTimes(1);
    expect(gate.mayRun()).toBe(true);
  });

  it('on a lease: starts at the win, stops at the loss, and refuses runs once unconfirmed', async () => {
    const engine = new MemoryLease();
    let silent = false;
    // A machine whose renewals stop being answered (paused, or cut off from the engine).
    const port: LeasePort = {
      acquire: (...a) => (silent ? new Promise(() => undefined) : engine.acquire(...a)),
      renew: (...a) => (silent ? new Promise(() => undefined) : engine.renew(...a)),
      release: (...a) => engine.release(...a),
      holderOf: (...a) => engine.holderOf(...a),
    };
    const election = new LeaseElection(port, 'scheduler', 'a', {
      ttlMs: TTL,
      onError: (error) => {
        throw error;
      },
    });
    const gate = new SchedulerGate(election);
    const start = jest.fn();
    const stop = jest.fn();
    gate.whenElected(start, stop);
    expect(gate.mayRun()).toBe(false);

    election.start();
    await jest.advanceTimersByTimeAsync(TTL);
    expect(start).toHaveBeenCalledTimes(1);
    expect(gate.mayRun()).toBe(true);

    silent = true;
    await jest.advanceTimersByTimeAsync(TTL);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(gate.mayRun()).toBe(false);
    await gate.release();
  });
});
