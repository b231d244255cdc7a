import { screen, waitFor } from '@testing-library/react';
import type { StatusDto } from '@tollgate/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenFixture } from '@/test/fixtures';
import { mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { Chat2LinkPage, windowLocation } from './chat2link-page';
import { ChatPage } from './chat-page';

const key = (char: string) => char.repeat(48);
const CHATS: Array<Record<string, string>> = [
  { First: 'https://one.example/?k={key}&u={address}' },
  { Second: 'https://two.example/#{key}' },
];
const status: Partial<StatusDto> = { server_address: 'https://gw.example.com', chats: CHATS };

function setup(
  page: 'chat' | 'chat2link',
  route: string,
  overrides: Partial<StatusDto> = {},
  tokens = [
    tokenFixture({ id: 1, name: 'off', key: key('a'), status: 2 }),
    tokenFixture({ id: 2, name: 'on', key: key('b') }),
    tokenFixture({ id: 3, name: 'also-on', key: key('c') }),
  ],
) {
  const api = mockApi({ 'GET /api/token/': () => ok(tokens) });
  const view = renderWithProviders(page === 'chat' ? <ChatPage /> : <Chat2LinkPage />, {
    route,
    path: page === 'chat' ? '/chat/:id?' : '/chat2link',
    user: ordinaryUser,
    status: { ...status, ...overrides },
  });
  return { ...api, ...view };
}

afterEach(() => vi.restoreAllMocks());

describe('chat embed page', { timeout: 20_000 }, () => {
  it('embeds the chosen link with the first enabled key (tokens read with p=0, size=100)', async () => {
    const { calls } = setup('chat', '/chat/0');
    const frame = await screen.findByTestId('chat-frame');
    expect(frame).toHaveAttribute(
      'src',
      `https://one.example/?k=sk-${key('b')}&u=https%3A%2F%2Fgw.example.com`,
    );
    expect(frame).toHaveAttribute('title', 'First');
    const list = calls.find((call) => call.path === '/api/token/');
    expect(list?.query.get('p')).toBe('0');
    expect(list?.query.get('size')).toBe('100');
  });

  it('opens link {id} of the list', async () => {
    setup('chat', '/chat/1');
    expect(await screen.findByTestId('chat-frame')).toHaveAttribute(
      'src',
      `https://two.example/#sk-${key('b')}`,
    );
  });

  it('uses the legacy ChatLink while Chats is empty, the origin standing in for the address', async () => {
    setup('chat', '/chat', { chats: [], chat_link: 'https://next.example', server_address: '' });
    const address = encodeURIComponent(window.location.origin);
    expect(await screen.findByTestId('chat-frame')).toHaveAttribute(
      'src',
      `https://next.example/#/?settings={"key":"sk-${key('b')}","url":"${address}"}`,
    );
  });

  it('asks for the administrator when the link does not exist, without reading tokens', async () => {
    const { calls } = setup('chat', '/chat/5');
    expect(await screen.findByText('请联系管理员配置聊天链接')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/token/')).toBe(false);
  });

  it('says the chat data cannot be parsed', async () => {
    setup('chat', '/chat/0', { chats: { First: 'https://one.example' } as never });
    expect(await screen.findByText('聊天数据解析失败')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-frame')).not.toBeInTheDocument();
  });

  it('without an enabled token, says so and opens /token after 1.5 s', async () => {
    const { router } = setup('chat', '/chat/0', {}, [
      tokenFixture({ id: 1, key: key('a'), status: 2 }),
    ]);
    expect(
      await screen.findByText('当前没有可用的启用令牌，请确认是否有令牌处于启用状态！'),
    ).toBeInTheDocument();
    const shownAt = Date.now();
    expect(router.state.location.pathname).toBe('/chat/0');
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'), { timeout: 4000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(1200);
    expect(screen.queryByTestId('chat-frame')).not.toBeInTheDocument();
  });
});

describe('/chat2link', { timeout: 20_000 }, () => {
  it('sends the window to the first link with the first enabled key', async () => {
    const assign = vi.spyOn(windowLocation, 'assign').mockImplementation(() => undefined);
    setup('chat2link', '/chat2link');
    expect(screen.getByText('正在加载，请稍候...')).toBeInTheDocument();
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        `https://one.example/?k=sk-${key('b')}&u=https%3A%2F%2Fgw.example.com`,
      ),
    );
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it('asks for the administrator when no chat link is configured', async () => {
    const assign = vi.spyOn(windowLocation, 'assign').mockImplementation(() => undefined);
    setup('chat2link', '/chat2link', { chats: [], chat_link: '' });
    expect(await screen.findByText('请联系管理员配置聊天链接')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('without an enabled token, says so and opens /token', async () => {
    const assign = vi.spyOn(windowLocation, 'assign').mockImplementation(() => undefined);
    const { router } = setup('chat2link', '/chat2link', {}, []);
    expect(
      await screen.findByText('当前没有可用的启用令牌，请确认是否有令牌处于启用状态！'),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'), { timeout: 4000 });
    expect(assign).not.toHaveBeenCalled();
  });
});
