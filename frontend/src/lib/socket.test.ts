import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCEPTED_AFTER_MS, openChangeFeed, RETRY_AFTER_MS } from './socket';

type Listener = (...args: unknown[]) => void;

/** A stand-in for socket.io's client socket: records connects, lets the test fire events. */
const fake = vi.hoisted(() => {
  const listeners = new Map<string, Listener[]>();
  return {
    listeners,
    connect: vi.fn(),
    disconnect: vi.fn(),
    fire(event: string, ...args: unknown[]) {
      for (const listener of listeners.get(event) ?? []) listener(...args);
    },
  };
});

vi.mock('socket.io-client', () => ({
  io: () => ({
    on(event: string, listener: Listener) {
      fake.listeners.set(event, [...(fake.listeners.get(event) ?? []), listener]);
    },
    off(event: string, listener: Listener) {
      fake.listeners.set(
        event,
        (fake.listeners.get(event) ?? []).filter((l) => l !== listener),
      );
    },
    removeAllListeners(event: string) {
      fake.listeners.delete(event);
    },
    connect: fake.connect,
    disconnect: fake.disconnect,
  }),
}));

describe('openChangeFeed', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    fake.listeners.clear();
    fake.connect.mockClear();
    fake.disconnect.mockClear();
  });
  afterEach(() => vi.useRealTimers());

  it('hands pushes to the listener', () => {
    const onChanged = vi.fn();
    openChangeFeed(1, onChanged);
    fake.fire('changed', { topic: 'self', id: 1 });
    expect(onChanged).toHaveBeenCalledWith({ topic: 'self', id: 1 });
  });

  it('after a server disconnect (a password change in another tab) it reconnects once, a moment later', () => {
    openChangeFeed(1, vi.fn());
    fake.fire('connect');
    vi.advanceTimersByTime(ACCEPTED_AFTER_MS);
    fake.fire('disconnect', 'io server disconnect');
    expect(fake.connect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(RETRY_AFTER_MS);
    expect(fake.connect).toHaveBeenCalledTimes(1);
    // Refused again at once: the session really ended, no loop.
    fake.fire('connect');
    fake.fire('disconnect', 'io server disconnect');
    vi.advanceTimersByTime(ACCEPTED_AFTER_MS + RETRY_AFTER_MS);
    expect(fake.connect).toHaveBeenCalledTimes(1);
  });

  it('a connection that lived is allowed one retry again later', () => {
    openChangeFeed(1, vi.fn());
    fake.fire('disconnect', 'io server disconnect');
    vi.advanceTimersByTime(RETRY_AFTER_MS);
    fake.fire('connect');
    vi.advanceTimersByTime(ACCEPTED_AFTER_MS);
    fake.fire('disconnect', 'io server disconnect');
    vi.advanceTimersByTime(RETRY_AFTER_MS);
    expect(fake.connect).toHaveBeenCalledTimes(2);
  });

  it('leaves transport drops to socket.io (it reconnects those itself) and closes for good', () => {
    const close = openChangeFeed(1, vi.fn());
    fake.fire('disconnect', 'transport close');
    vi.advanceTimersByTime(RETRY_AFTER_MS);
    expect(fake.connect).not.toHaveBeenCalled();
    fake.fire('disconnect', 'io server disconnect');
    close(); // a retry still waiting is dropped
    vi.advanceTimersByTime(RETRY_AFTER_MS);
    expect(fake.connect).not.toHaveBeenCalled();
    expect(fake.disconnect).toHaveBeenCalledTimes(1);
  });
});
