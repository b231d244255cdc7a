import { expectText, shoot, signIn, useBrowserSession } from './browser-helpers';

// new-api's first-run wizard in the browser: on a fresh gateway (root / 123456) the login page offers new-api's
// first-run wizard; /setup renames root, sets its password and the usage mode; afterwards the
// status says setup is done, /setup sends to the login page and root signs in with the new
// credentials. Screenshots: setup-*.

jest.setTimeout(120_000);

describe('first-run wizard (/setup)', () => {
  const session = useBrowserSession();

  it('is offered on the login page, completes once, and the new credentials sign in', async () => {
    const page = await session.openPage();
    await page.goto('/login');
    await expectText(page.getByRole('alert'), /管理员仍在使用默认密码/);
    await page.getByRole('link', { name: '前往初始化' }).click();
    await page.waitForURL('**/setup');
    await expectText(page.getByRole('heading', { level: 2 }), /系统初始化/);
    await shoot(page, 'setup-wizard');

    await page.getByLabel('用户名').fill('owner');
    await page.getByLabel('密码', { exact: true }).fill('owner-pass-1');
    await page.getByLabel('确认密码').fill('owner-pass-2');
    await page.getByRole('button', { name: '初始化系统' }).click();
    await expectText(page.getByText('两次输入的密码不一致').first(), /两次输入的密码不一致/);

    await page.getByLabel('确认密码').fill('owner-pass-1');
    await page.getByLabel('自用模式').check();
    await page.getByRole('button', { name: '初始化系统' }).click();
    await page.waitForURL('**/login');
    await expectText(page.getByText(/系统初始化成功/).first(), /系统初始化成功/);
    const status = (await (await page.request.get('/api/status')).json()) as {
      data: { setup: boolean; self_use_mode_enabled: boolean };
    };
    expect(status.data).toMatchObject({ setup: true, self_use_mode_enabled: true });
    expect(await page.getByRole('link', { name: '前往初始化' }).count()).toBe(0);

    await signIn(page, 'owner', 'owner-pass-1');
    await shoot(page, 'setup-signed-in');
    await page.goto('/setup');
    await page.waitForURL('**/login');
  });
});
