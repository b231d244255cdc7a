import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUS } from '@/features/status';
import { ok } from '@/test/mock-api';
import { renderApp, rootUser } from '@/test/render';
import { card, mockOptions, optionPuts, saveCard } from './options-test-kit';

describe('other tab', { timeout: 20_000 }, () => {
  it('a saved system name reaches the header through the status query', async () => {
    let systemName = 'Tollgate';
    const { calls } = mockOptions(
      {},
      { 'GET /api/status': () => ok({ ...DEFAULT_STATUS, system_name: systemName }) },
    );
    renderApp({ route: '/setting?tab=other', user: rootUser });
    const region = await card('系统名称');
    fireEvent.change(within(region).getByLabelText('系统名称'), {
      target: { value: 'Acme Gateway' },
    });
    systemName = 'Acme Gateway';
    await saveCard(region);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([{ key: 'SystemName', value: 'Acme Gateway' }]);
    expect((await screen.findAllByText('Acme Gateway')).length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.path === '/api/status').length).toBeGreaterThan(1);
  });

  it('keeps the notice as written (Markdown whitespace included)', async () => {
    const { calls } = mockOptions();
    renderApp({ route: '/setting?tab=other', user: rootUser });
    const region = await card('公告');
    fireEvent.change(within(region).getByLabelText('公告'), {
      target: { value: '# 维护通知\n\n  今晚 22:00 升级\n' },
    });
    await saveCard(region);
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
    expect(optionPuts(calls)).toEqual([
      { key: 'Notice', value: '# 维护通知\n\n  今晚 22:00 升级\n' },
    ]);
  });
});
