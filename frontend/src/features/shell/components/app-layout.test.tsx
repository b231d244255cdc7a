import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSessionUser } from '@/lib/session';
import { readString, StorageKey } from '@/lib/storage';
import { mockApi, ok } from '@/test/mock-api';
import { ordinaryUser, renderApp, rootUser } from '@/test/render';

const publicContent = {
  'GET /api/about': () => ok(''),
  'GET /api/home_page_content': () => ok(''),
  'GET /api/notice': () => ok(''),
};

async function sidebarLabels(): Promise<string[]> {
  const nav = await screen.findByRole('navigation', { name: '导航' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.getAttribute('aria-label') ?? '');
}

describe('console shell', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hides admin-only items from ordinary users', async () => {
    mockApi(publicContent);
    renderApp({ route: '/about', user: ordinaryUser });
    expect(await sidebarLabels()).toEqual(['操练场', '模型价格', '令牌', '钱包', '日志', '设置']);
  });

  it('shows channel, redemption and user management to administrators', async () => {
    mockApi(publicContent);
    renderApp({ route: '/about', user: rootUser });
    expect(await sidebarLabels()).toEqual([
      '操练场',
      '模型价格',
      '渠道',
      '令牌',
      '兑换码',
      '钱包',
      '用户管理',
      '日志',
      '设置',
    ]);
  });

  it('shows the docs link only when set, and the self-use / demo-site tag', async () => {
    mockApi(publicContent);
    const { unmount } = renderApp({ route: '/about', user: ordinaryUser });
    await sidebarLabels();
    expect(screen.queryByRole('link', { name: '文档' })).not.toBeInTheDocument();
    expect(screen.queryByText('演示站点')).not.toBeInTheDocument();
    unmount();
    renderApp({
      route: '/about',
      user: ordinaryUser,
      status: { docs_link: 'https://docs.example.com', demo_site_enabled: true },
    });
    const docs = await screen.findByRole('link', { name: '文档' });
    expect(docs).toHaveAttribute('href', 'https://docs.example.com');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(screen.getByText('演示站点')).toBeInTheDocument();
  });

  it('shows dashboard, drawing and tasks only when enabled in the status', async () => {
    mockApi(publicContent);
    renderApp({
      route: '/about',
      user: ordinaryUser,
      status: { enable_data_export: true, enable_drawing: true, enable_task: false },
    });
    const labels = await sidebarLabels();
    expect(labels).toContain('数据看板');
    expect(labels).toContain('绘图');
    expect(labels).not.toContain('异步任务');
  });

  it('adds the New Year item during the season', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 1, 12, 10));
    mockApi(publicContent);
    renderApp({ route: '/about', user: ordinaryUser });
    const nav = await screen.findByRole('navigation', { name: '导航' });
    await userEvent.click(within(nav).getByRole('button', { name: '新年快乐' }));
    expect(await screen.findByText(/新年快乐！/)).toBeInTheDocument();
  });

  it('has no New Year item outside the season', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 1, 10));
    mockApi(publicContent);
    renderApp({ route: '/about', user: ordinaryUser });
    const nav = await screen.findByRole('navigation', { name: '导航' });
    expect(within(nav).queryByRole('button', { name: '新年快乐' })).not.toBeInTheDocument();
  });

  it('builds the chat submenu from the configured chat links', async () => {
    mockApi(publicContent);
    renderApp({
      route: '/about',
      user: ordinaryUser,
      status: { chats: [{ ChatGPT: 'https://a/{key}' }, { Lobe: 'https://b/{key}' }] },
    });
    await userEvent.click(await screen.findByText('聊天'));
    expect(await screen.findByRole('link', { name: 'ChatGPT' })).toHaveAttribute('href', '/chat/0');
    expect(screen.getByRole('link', { name: 'Lobe' })).toHaveAttribute('href', '/chat/1');
  });

  it('says the chat data cannot be parsed when the chat links are not a list', async () => {
    mockApi(publicContent);
    renderApp({
      route: '/about',
      user: ordinaryUser,
      status: { chats: { ChatGPT: 'https://a/{key}' } as never },
    });
    expect(await screen.findByText('聊天数据解析失败')).toBeInTheDocument();
    expect(screen.queryByText('聊天')).not.toBeInTheDocument();
  });

  it('remembers the collapsed sidebar', async () => {
    mockApi(publicContent);
    renderApp({ route: '/about', user: ordinaryUser });
    await userEvent.click(await screen.findByRole('button', { name: '收起侧边栏' }));
    expect(readString(StorageKey.sidebarCollapsed)).toBe('true');
    expect(screen.getByRole('button', { name: '展开侧边栏' })).toBeInTheDocument();
  });

  it('offers login and register links when signed out, a user menu when signed in', async () => {
    mockApi(publicContent);
    const signedOut = renderApp({ route: '/about' });
    const header = await screen.findByRole('banner');
    expect(within(header).getByRole('link', { name: '登录' })).toHaveAttribute('href', '/login');
    expect(within(header).getByRole('link', { name: '注册' })).toHaveAttribute('href', '/register');
    signedOut.unmount();

    renderApp({ route: '/about', user: ordinaryUser });
    expect(await screen.findByTestId('user-menu')).toHaveTextContent('Alice');
  });

  it('signs out from the user menu', async () => {
    const { calls } = mockApi({ ...publicContent, 'GET /api/user/logout': () => ok() });
    const { router } = renderApp({ route: '/about', user: ordinaryUser });
    await userEvent.click(await screen.findByTestId('user-menu'));
    await userEvent.click(await screen.findByRole('menuitem', { name: '退出' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getSessionUser()).toBeNull();
    expect(calls.some((call) => call.path === '/api/user/logout')).toBe(true);
  });

  it('renders the custom footer HTML, or the default credit line', async () => {
    mockApi(publicContent);
    const custom = renderApp({ route: '/about', status: { footer_html: '<b>My footer</b>' } });
    expect(await screen.findByText('My footer')).toBeInTheDocument();
    custom.unmount();

    renderApp({ route: '/about', status: { system_name: 'Gate', version: '1.2.3' } });
    expect(await screen.findByTestId('footer')).toHaveTextContent(
      'Gate v1.2.3 由 Tollgate 构建，源代码遵循 MIT 协议',
    );
  });

  it('sends a signed-out visitor of a protected page to /login', async () => {
    mockApi(publicContent);
    const { router } = renderApp({ route: '/setting' });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('');
  });

  it('sends ordinary users away from admin pages', async () => {
    mockApi(publicContent);
    const { router } = renderApp({ route: '/user', user: ordinaryUser });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('turns a 401 into /login?expired=true and forgets the user', async () => {
    mockApi({
      ...publicContent,
      'GET /api/user/self': () => new Response('{}', { status: 401 }),
    });
    const { router } = renderApp({ route: '/setting', user: ordinaryUser });
    // The 401, the sign-out and the redirect can outlast findBy's 1 s default on a loaded machine.
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(
      '未登录或登录已过期，请重新登录！',
    );
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?expired=true');
    expect(getSessionUser()).toBeNull();
  });

  it('stores the status locally and reports when it cannot be fetched', async () => {
    mockApi({ ...publicContent, 'GET /api/status': () => ok({ system_name: 'Fetched Gate' }) });
    const first = renderApp({ route: '/about' });
    expect(await screen.findByText('Fetched Gate')).toBeInTheDocument();
    expect(JSON.parse(readString(StorageKey.status) ?? '{}')).toMatchObject({
      system_name: 'Fetched Gate',
    });
    first.unmount();

    mockApi({ ...publicContent, 'GET /api/status': () => new Response('', { status: 502 }) });
    renderApp({ route: '/about' });
    expect(await screen.findByText('无法正常连接至服务器！')).toBeInTheDocument();
  });

  it('shows the not-found page for unknown routes', async () => {
    mockApi(publicContent);
    renderApp({ route: '/no/such/page' });
    expect(await screen.findByText('页面不存在')).toBeInTheDocument();
  });
});
