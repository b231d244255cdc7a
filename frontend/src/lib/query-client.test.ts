import { notifications } from '@mantine/notifications';
import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './http';
import { createQueryClient } from './query-client';

describe('mutation meta (success toast, refetch of what changed)', () => {
  afterEach(() => vi.restoreAllMocks());

  const shown = () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    return () => show.mock.calls.map(([data]) => [data.color, data.message]);
  };

  /** A list on screen (an observed query) and a mutation that changes it. */
  async function setUp(mutationFn: () => Promise<unknown>) {
    const client = createQueryClient();
    let fetches = 0;
    const list = new QueryObserver(client, {
      queryKey: ['things', 'list'],
      queryFn: () => Promise.resolve(++fetches),
    });
    list.subscribe(() => {});
    await vi.waitFor(() => expect(fetches).toBe(1));
    const observer = new MutationObserver(client, {
      mutationFn,
      meta: { success: 'common.copied', invalidates: ['things'] },
    });
    return { observer, fetches: () => fetches };
  }

  it('toasts the success key and refetches before the mutation resolves', async () => {
    const calls = shown();
    const { observer, fetches } = await setUp(() => Promise.resolve('ok'));
    await observer.mutate();
    expect(calls()).toEqual([['green', '已复制到剪贴板！']]);
    expect(fetches()).toBe(2);
  });

  it('refetches after a failure too, with the error toast and no success toast', async () => {
    const calls = shown();
    const { observer, fetches } = await setUp(() => Promise.reject(new ApiError('余额不足')));
    await expect(observer.mutate()).rejects.toThrow('余额不足');
    expect(calls()).toEqual([['red', '余额不足']]);
    expect(fetches()).toBe(2);
  });
});
