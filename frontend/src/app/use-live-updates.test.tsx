import type { ChangedEvent } from '@tollgate/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { subscribeChanges } from '@/lib/change-bus';
import { clearSessionUser, sessionRenewed, setSessionUser } from '@/lib/session';
import { ordinaryUser } from '@/test/render';
import { useLiveUpdates } from './use-live-updates';

const feed = vi.hoisted(() => ({
  listener: null as ((event: ChangedEvent) => void) | null,
  close: vi.fn(),
  opened: 0,
}));

vi.mock('@/lib/socket', () => ({
  openChangeFeed: (_userId: number, onChanged: (event: ChangedEvent) => void) => {
    feed.listener = onChanged;
    feed.opened += 1;
    return feed.close;
  },
}));

function setup() {
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useLiveUpdates(), { wrapper });
  return { invalidate, ...hook };
}

describe('useLiveUpdates', () => {
  it('stays idle while nobody is signed in', () => {
    feed.listener = null;
    setup();
    expect(feed.listener).toBeNull();
  });

  it('invalidates only the queries of the pushed topic', () => {
    setSessionUser(ordinaryUser);
    const { invalidate } = setup();
    feed.listener?.({ topic: 'users', id: 3 });
    expect(invalidate.mock.calls).toEqual([[{ queryKey: ['users'] }]]);

    invalidate.mockClear();
    feed.listener?.({ topic: 'self', id: 2 });
    expect(invalidate.mock.calls).toEqual([[{ queryKey: ['self'] }]]);
  });

  it('refreshes the token and code pages on their topics', () => {
    setSessionUser(ordinaryUser);
    const { invalidate } = setup();
    for (const topic of ['tokens', 'redemptions'] as const) {
      invalidate.mockClear();
      feed.listener?.({ topic });
      expect(invalidate.mock.calls).toEqual([[{ queryKey: [topic] }]]);
    }
  });

  it('leaves log pushes to the log page (its live toggle), handing every push on', () => {
    setSessionUser(ordinaryUser);
    const { invalidate } = setup();
    const heard: ChangedEvent[] = [];
    const stop = subscribeChanges((event) => heard.push(event));
    invalidate.mockClear();
    feed.listener?.({ topic: 'logs' });
    feed.listener?.({ topic: 'channels', id: 4 });
    stop();
    expect(invalidate.mock.calls).toEqual([[{ queryKey: ['channels'] }]]);
    expect(heard).toEqual([{ topic: 'logs' }, { topic: 'channels', id: 4 }]);
  });

  it('closes the feed on sign-out', () => {
    setSessionUser(ordinaryUser);
    setup();
    feed.close.mockClear();
    act(() => clearSessionUser());
    expect(feed.close).toHaveBeenCalledOnce();
  });

  it('reopens the feed when the session cookie was renewed (own password change)', () => {
    setSessionUser(ordinaryUser);
    setup();
    feed.close.mockClear();
    const opened = feed.opened;
    act(() => sessionRenewed());
    expect(feed.close).toHaveBeenCalledOnce();
    expect(feed.opened).toBe(opened + 1);
  });
});
