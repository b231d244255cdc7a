import {
  expectAttribute,
  expectCount,
  expectText,
  pageApi,
  poll,
  register,
  shoot,
  signIn,
  useBrowserSession,
  unique,
  type BrowserSession,
  type Locator,
  chooseRowMenu,
} from './browser-helpers';

// The console in Debian's chromium against the built gateway (temp DATA_DIR): the proof of the
// console issue. Screenshots of every screen land in test-artifacts/screenshots/ (git-ignored).

jest.setTimeout(90_000);

const session = useBrowserSession();

const openPage = (options?: Parameters<BrowserSession['openPage']>[0]) => session.openPage(options);

test('register, sign in, and the personal page shows the account', async () => {
  const page = await openPage();
  const username = unique('alice');

  await page.goto('/register');
  await shoot(page, 'register');
  await register(page, username, 'alice-password');
  await page.getByText('注册成功！').waitFor();
  await shoot(page, 'login');

  await signIn(page, username, 'alice-password');
  await page.getByText('登录成功！').waitFor();

  await page.getByRole('navigation', { name: '导航' }).getByRole('link', { name: '设置' }).click();
  await page.waitForURL('**/setting');
  const account = page.getByTestId('account-card');
  await account.getByText(`@${username}`).waitFor();
  await expectText(page.getByTestId('account-balance'), /^\$\d+\.\d{2}$/);
  await page.getByTestId('invitation-card').getByText('邀请链接').waitFor();
  await shoot(page, 'setting-personal');
});

test('root: default-password modal, then create, promote, disable and search a user', async () => {
  const page = await openPage();
  await signIn(page, 'root', '123456');
  await page.getByText('请立刻修改默认密码！').waitFor();
  await shoot(page, 'default-password-modal');
  await page.getByRole('button', { name: '稍后' }).click();

  await page
    .getByRole('navigation', { name: '导航' })
    .getByRole('link', { name: '用户管理' })
    .click();
  await page.waitForURL('**/user');
  await page.getByRole('heading', { name: '管理用户' }).waitFor();

  const username = unique('bob');
  await page.getByRole('button', { name: '添加用户' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('用户名').fill(username);
  await dialog.getByLabel('密码', { exact: true }).fill('bob-password');
  await dialog.getByRole('button', { name: '提交' }).click();
  await page.getByText('用户账户创建成功！').waitFor();

  const row = page.getByTestId(`user-row-${username}`);
  await row.getByText('普通用户').waitFor();
  await chooseRowMenu(page, row, '提升');
  await row.getByText('管理员', { exact: true }).waitFor();
  await row.getByRole('button', { name: '禁用' }).click();
  await row.getByText('已封禁').waitFor();
  await shoot(page, 'users');

  await page.getByRole('textbox', { name: '搜索关键字' }).fill(username);
  await page.getByRole('button', { name: '查询' }).click();
  await page.waitForURL(`**/user?keyword=${username}`);
  await expectCount(page.locator('[data-testid^="user-row-"]'), 1);
  await shoot(page, 'users-search');

  await row.getByRole('link', { name: '编辑' }).click();
  await page.getByRole('heading', { name: '更新用户信息' }).waitFor();
  await shoot(page, 'user-edit');
});

test('a change made elsewhere reaches an open user list through the socket', async () => {
  const page = await openPage();
  await signIn(page, 'root', '123456');
  await page.getByRole('button', { name: '稍后' }).click();
  await page.goto('/user');
  await page.getByTestId('user-row-root').waitFor();

  // A second session (another browser profile) creates a user over the API.
  const other = await session.newContext();
  const login = await other.request.post('/api/user/login', {
    data: { username: 'root', password: '123456' },
  });
  const { data: rootUser } = (await login.json()) as { data: { id: number } };
  const username = unique('live');
  const created = await other.request.post('/api/user/', {
    data: { username, password: 'live-password' },
    headers: { 'New-Api-User': String(rootUser.id) },
  });
  expect(((await created.json()) as { success: boolean }).success).toBe(true);

  await page.getByTestId(`user-row-${username}`).waitFor();
});

test('after changing their own password the page still hears pushes (the socket reopens)', async () => {
  const page = await openPage();
  const username = unique('dave');
  await register(page, username, 'dave-password');
  await signIn(page, username, 'dave-password');
  await page.getByRole('navigation', { name: '导航' }).getByRole('link', { name: '设置' }).click();
  await page.waitForURL('**/setting');
  const balance = page.getByTestId('account-balance');
  await expectText(balance, /^\$\d+\.\d{2}$/);
  const before = await balance.textContent();

  await page.getByRole('button', { name: '修改密码' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('当前密码').fill('dave-password');
  await dialog.getByLabel('新密码').fill('dave-password-2');
  await dialog.getByLabel('确认密码').fill('dave-password-2');
  await dialog.getByRole('button', { name: '确定' }).click();
  await page.getByText('密码修改成功！').waitFor();

  // Root, in another browser profile, grants quota: only a push can refresh this page's balance.
  const other = await session.newContext();
  const login = await other.request.post('/api/user/login', {
    data: { username: 'root', password: '123456' },
  });
  const headers = {
    'New-Api-User': String(((await login.json()) as { data: { id: number } }).data.id),
  };
  const found = await other.request.get(`/api/user/search?keyword=${username}`, { headers });
  const [user] = ((await found.json()) as { data: { items: Array<{ id: number; quota: number }> } })
    .data.items;
  const granted = await other.request.put('/api/user/', {
    data: { id: user!.id, quota: user!.quota + 500_000 },
    headers,
  });
  expect(((await granted.json()) as { success: boolean }).success).toBe(true);
  await poll(
    async () => (await balance.textContent()) !== before,
    async () => `the balance stayed ${before} after the grant: no push reached the page`,
  );
});

test('the language switch goes zh-CN ⇄ en and is remembered', async () => {
  const page = await openPage();
  await page.goto('/login');
  await page.getByRole('heading', { name: '用户登录' }).waitFor();

  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await shoot(page, 'login-en');

  await page.getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: '简体中文' }).click();
  await page.getByRole('heading', { name: '用户登录' }).waitFor();
});

test('an English browser gets the English console by default', async () => {
  const page = await openPage({ locale: 'en-US' });
  await page.goto('/');
  await page.getByText('System information').waitFor();
  await shoot(page, 'home-en');
});

test('dark mode is toggled and remembered', async () => {
  const page = await openPage();
  await page.goto('/');
  const html = page.locator('html');
  await expectAttribute(html, 'data-mantine-color-scheme', 'light');
  await page.getByTestId('theme-toggle').click();
  await expectAttribute(html, 'data-mantine-color-scheme', 'dark');
  await page.reload();
  await expectAttribute(html, 'data-mantine-color-scheme', 'dark');
  await shoot(page, 'home-dark');
});

test('an expired session lands on /login?expired=true with the message', async () => {
  const page = await openPage();
  const username = unique('carol');
  await register(page, username, 'carol-password');
  await signIn(page, username, 'carol-password');

  // The server forgets the session (cookie gone); the console still holds the local user.
  await page.context().clearCookies();
  await page.goto('/setting');
  await page.waitForURL('**/login?expired=true');
  await page.getByText('未登录或登录已过期，请重新登录！').waitFor();
  await shoot(page, 'login-expired');
});

test('the mobile layout hides the sidebar behind a burger', async () => {
  const page = await openPage({ viewport: { width: 390, height: 844 } });
  await page.goto('/');
  const sidebar = page.getByTestId('sidebar');
  await expectHidden(sidebar);
  await shoot(page, 'mobile-home');

  await page.getByRole('button', { name: '打开或关闭导航' }).click();
  await page
    .getByRole('navigation', { name: '导航' })
    .getByRole('link', { name: '模型价格' })
    .click();
  await page.waitForURL('**/pricing');
  await expectHidden(sidebar);
  await shoot(page, 'mobile-pricing');
});

test('public pages: home, about, reset, not found', async () => {
  const page = await openPage();
  await page.goto('/');
  await page.getByText('系统信息').waitFor();
  await shoot(page, 'home');
  await page.goto('/about');
  await page.getByRole('heading', { name: '关于' }).waitFor();
  await shoot(page, 'about');
  await page.goto('/reset');
  await page.getByRole('heading', { name: '密码重置' }).waitFor();
  await shoot(page, 'reset');
  await page.goto('/no/such/page');
  await page.getByText('页面不存在').waitFor();
  await shoot(page, 'not-found');
});

const expectHidden = (locator: Locator) =>
  poll(
    async () => !(await locator.isVisible()) || (await isOffscreen(locator)),
    async () => 'expected the element to be hidden',
  );

/** Mantine slides the mobile navbar off-screen instead of removing it. */
async function isOffscreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box === null || box.x + box.width <= 0;
}

test('at 390 px the tables are cards and the token copy button is on screen', async () => {
  const page = await openPage({ viewport: { width: 390, height: 844 } });
  const username = unique('phone');
  await register(page, username, 'phone-password');
  await signIn(page, username, 'phone-password');
  await pageApi(page, 'post', '/api/token/', {
    name: 'phone-token',
    remain_quota: 0,
    expired_time: -1,
    unlimited_quota: true,
  });
  for (const [lang, scheme, copy] of [
    ['zh-CN', 'light', '复制'],
    ['en', 'dark', 'Copy'],
  ] as const) {
    await page.evaluate(
      `localStorage.setItem('language', '${lang}'); localStorage.setItem('color-scheme', '${scheme}')`,
    );
    await page.goto('/token');
    await expectAttribute(page.getByTestId('tokens-table'), 'data-layout', 'cards');
    const card = page.getByTestId('token-row-phone-token');
    const button = card.getByRole('button', { name: copy, exact: true });
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await button.click({ trial: true });
    await shoot(page, `cards-token-${lang}-${scheme}-390`);

    await page.goto('/log');
    await expectAttribute(page.getByTestId('logs-table'), 'data-layout', 'cards');
    await shoot(page, `cards-log-${lang}-${scheme}-390`);
  }
});
