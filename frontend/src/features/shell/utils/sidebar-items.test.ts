import { Role } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { buildSidebarItems } from './sidebar-items';

const status = {
  chats: [],
  chat_link: '',
  chat_link2: '',
  enable_data_export: false,
  enable_drawing: false,
  enable_task: false,
};
const ordinaryDay = new Date(2025, 5, 15);
const keys = (context: Parameters<typeof buildSidebarItems>[0]) =>
  buildSidebarItems(context).map((item) => item.key);

describe('buildSidebarItems', () => {
  it('lists the ordinary user items in spec order', () => {
    expect(keys({ role: Role.Common, status, now: ordinaryDay })).toEqual([
      'playground',
      'pricing',
      'token',
      'topup',
      'log',
      'setting',
    ]);
  });

  it('adds channel, redemption and user management for administrators', () => {
    expect(keys({ role: Role.Admin, status, now: ordinaryDay })).toEqual([
      'playground',
      'pricing',
      'channel',
      'token',
      'redemption',
      'topup',
      'user',
      'log',
      'setting',
    ]);
    expect(keys({ role: Role.Root, status, now: ordinaryDay })).toContain('user');
  });

  it('shows a visitor who is not signed in only the public pages', () => {
    const visitor = keys({
      role: undefined,
      status: { ...status, enable_data_export: true, enable_drawing: true, enable_task: true },
      now: ordinaryDay,
    });
    for (const key of ['channel', 'token', 'topup', 'log', 'setting', 'playground', 'detail'])
      expect(visitor).not.toContain(key);
    expect(visitor).toContain('pricing');
  });

  it('shows dashboard, drawing and tasks only when the status enables them', () => {
    const enabled = {
      ...status,
      enable_data_export: true,
      enable_drawing: true,
      enable_task: true,
    };
    expect(keys({ role: Role.Common, status: enabled, now: ordinaryDay })).toEqual([
      'playground',
      'pricing',
      'token',
      'topup',
      'log',
      'detail',
      'midjourney',
      'task',
      'setting',
    ]);
    expect(
      keys({ role: Role.Common, status: { ...status, enable_drawing: true }, now: ordinaryDay }),
    ).toEqual(['playground', 'pricing', 'token', 'topup', 'log', 'midjourney', 'setting']);
  });

  it('builds the chat submenu from the configured chat links', () => {
    const items = buildSidebarItems({
      role: Role.Common,
      status: { ...status, chats: [{ ChatGPT: 'https://a' }, { Lobe: 'https://b' }] },
      now: ordinaryDay,
    });
    const chat = items.find((item) => item.key === 'chat');
    expect(items.map((item) => item.key).indexOf('chat')).toBe(2);
    expect(chat?.children?.map((child) => [child.label, child.to])).toEqual([
      [{ text: 'ChatGPT' }, '/chat/0'],
      [{ text: 'Lobe' }, '/chat/1'],
    ]);
  });

  it('falls back to a single chat item when only ChatLink is set', () => {
    const items = buildSidebarItems({
      role: Role.Common,
      status: { ...status, chat_link: 'https://chat' },
      now: ordinaryDay,
    });
    expect(items.find((item) => item.key === 'chat')?.to).toBe('/chat');
  });

  it('ignores ChatLink once Chats has links, and drops the chat item for unreadable chat data', () => {
    const withChats = buildSidebarItems({
      role: Role.Common,
      status: { ...status, chats: [{ Lobe: 'https://b' }], chat_link: 'https://chat' },
      now: ordinaryDay,
    });
    const chat = withChats.find((item) => item.key === 'chat');
    expect(chat?.to).toBeUndefined();
    expect(chat?.children?.map((child) => child.to)).toEqual(['/chat/0']);
    const unreadable = buildSidebarItems({
      role: Role.Common,
      status: { ...status, chats: { Lobe: 'https://b' } as never, chat_link: 'https://chat' },
      now: ordinaryDay,
    });
    expect(unreadable.map((item) => item.key)).not.toContain('chat');
  });

  it.each([
    [new Date(2025, 0, 1), true],
    [new Date(2025, 0, 2), false],
    [new Date(2025, 1, 8), false],
    [new Date(2025, 1, 9), true],
    [new Date(2025, 1, 24, 23, 59), true],
    [new Date(2025, 1, 25), false],
    [new Date(2025, 11, 31), false],
  ])('shows the New Year item on %s: %s', (now, shown) => {
    expect(keys({ role: Role.Common, status, now }).includes('newYear')).toBe(shown);
  });
});
