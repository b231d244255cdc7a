import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { publishChange } from '@/lib/change-bus';
import { readString, StorageKey } from '@/lib/storage';
import { logFixture } from '@/test/fixtures';
import { mockApi, ok, type RecordedCall } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { LIVE_REFRESH_MS } from '../hooks/use-live-logs';
import { LogsPage } from './logs-page';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server has one more consumption row each time the list is read. */
function setup(route = '/log') {
  let rows = 1;
  const page = (call: RecordedCall) => {
    const items = Array.from({ length: rows }, (_, index) =>
      logFixture({ id: index + 1, type: 2, model_name: 'gpt-4o-mini' }),
    ).reverse();
    rows += 1;
    return ok({ items, total: items.length, page: Number(call.query.get('p')), page_size: 10 });
  };
  const api = mockApi({
    'GET /api/log/': page,
    'GET /api/log/stat': () => ok({ quota: 0, rpm: 0, tpm: 0 }),
  });
  renderWithProviders(<LogsPage />, { route, user: rootUser });
  const lists = () => api.calls.filter((call) => call.path === '/api/log/');
  return { ...api, lists };
}

const push = () => act(() => publishChange({ topic: 'logs' }));

describe('log page live toggle', { timeout: 20_000 }, () => {
  it('off: pushes do not move the page; a button offers the new rows', async () => {
    const { lists } = setup();
    await screen.findByTestId('log-row-1');
    const before = lists().length;
    expect(screen.getByRole('switch', { name: '实时' })).not.toBeChecked();

    push();
    push();
    await sleep(300);
    expect(lists()).toHaveLength(before);
    expect(screen.queryByTestId('log-row-2')).not.toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: '有新日志，点击刷新' }));
    await screen.findByTestId('log-row-2');
    expect(screen.queryByRole('button', { name: '有新日志，点击刷新' })).not.toBeInTheDocument();
  });

  it('on: new rows appear as they are pushed, one refetch per interval for a burst', async () => {
    const { lists } = setup('/log?p=2');
    await screen.findByTestId('log-row-1');
    await userEvent.click(screen.getByRole('switch', { name: '实时' }));
    expect(readString(StorageKey.logsLive)).toBe('1');
    // Following new rows starts at page 1.
    await waitFor(() => expect(lists().at(-1)?.query.get('p')).toBe('1'));
    await sleep(LIVE_REFRESH_MS + 100);
    const settled = lists().length;

    // A burst of twenty pushes: one refetch at once, one when the interval ends.
    for (let i = 0; i < 20; i += 1) push();
    await waitFor(() => expect(lists().length).toBe(settled + 1));
    await sleep(LIVE_REFRESH_MS + 300);
    expect(lists().length).toBe(settled + 2);
    const newest = lists().length;
    expect(await screen.findByTestId(`log-row-${newest}`)).toBeInTheDocument();

    // Off again: pushes no longer refetch.
    await userEvent.click(screen.getByRole('switch', { name: '实时' }));
    expect(screen.getByRole('switch', { name: '实时' })).not.toBeChecked();
    push();
    await sleep(300);
    expect(lists().length).toBe(newest);
  });
});
