import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  expectText,
  register,
  shoot,
  signIn,
  signInAsRoot,
  useBrowserSession,
  unique,
  rootApi,
} from './browser-helpers';

// In the browser: the wallet's online top-up against the built gateway. Root configures
// Epay (PayAddress = a small "Epay" page served here), a user moves the amount, sees the price
// (amount × Price × TopupGroupRatio) and pays: the browser posts the signed form to that page,
// which records what it received. Screenshots: test-artifacts/screenshots/topup-*.png.

jest.setTimeout(120_000);

const session = useBrowserSession();

interface Submission {
  path: string;
  params: Record<string, string>;
}

const submissions: Submission[] = [];
let epay: Server;
let epayUrl = '';

beforeAll(async () => {
  epay = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      // The console opens the pay page by GET (its CSP keeps forms on its own origin); a POST
      // form, new-api's way, is recorded the same.
      const url = new URL(req.url ?? '/', 'http://epay.test');
      const params = Object.fromEntries(
        req.method === 'POST' ? new URLSearchParams(body) : url.searchParams,
      );
      if (url.pathname === '/submit.php') submissions.push({ path: url.pathname, params });
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Mock Epay</title><h1>Mock Epay</h1>` +
          `<p id="trade">${params.out_trade_no ?? ''}</p><p id="money">${params.money ?? ''}</p>`,
      );
    });
  });
  await new Promise<void>((resolve) => epay.listen(0, '127.0.0.1', resolve));
  epayUrl = `http://127.0.0.1:${(epay.address() as AddressInfo).port}`;

  const root = await rootApi(session);
  // ServerAddress first: the Epay keys need it.
  const options: Array<[string, string]> = [
    ['ServerAddress', session.gateway.url],
    ['PayAddress', epayUrl],
    ['EpayId', '1001'],
    ['EpayKey', 'browser-test-epay-key'],
    ['Price', '2'],
    ['TopupGroupRatio', JSON.stringify({ default: 1.5, vip: 1, svip: 1 })],
  ];
  for (const [key, value] of options) await root.call('put', '/api/option/', { key, value });
  await root.close();
});

afterAll(() => new Promise<void>((resolve) => epay.close(() => resolve())));

test('a user sees the price of the amount and pays through the Epay page', async () => {
  const page = await session.openPage();
  const username = unique('epay');
  await register(page, username, 'epay-password');
  await signIn(page, username, 'epay-password');
  await page.goto('/topup');

  // The slider starts at 1: 1 × Price 2 × ratio 1.5 = 3.00.
  const price = page.getByTestId('epay-price');
  await expectText(price, /实付金额：3\.00 元/);
  const slider = page.getByRole('slider', { name: '充值数量' });
  await slider.focus();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
  await expectText(price, /实付金额：15\.00 元/);
  await shoot(page, 'topup-online');

  const [gatewayPage] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('button', { name: '支付宝' }).click(),
  ]);
  await gatewayPage.getByRole('heading', { name: 'Mock Epay' }).waitFor();
  await page.getByText('订单创建成功，即将打开支付页面').waitFor();
  expect(submissions).toHaveLength(1);
  const [{ path, params }] = submissions as [Submission];
  expect(path).toBe('/submit.php');
  expect(params).toMatchObject({ pid: '1001', type: 'alipay', money: '15.00' });
  expect(params.out_trade_no).toMatch(/\S+/);
  expect(params.sign).toMatch(/^[0-9a-f]{32}$/);
  expect(params.return_url).toBe(`${session.gateway.url}/topup`);
  await expectText(gatewayPage.locator('#money'), /^15\.00$/);

  // The order waits in the user's list.
  const order = page.getByTestId(`topup-order-${params.out_trade_no}`);
  await expectText(order, /待支付/);
  await expectText(order, /15\.00/);
  await shoot(page, 'topup-order-pending');

  // Root completes it by hand; the user's balance grows by 5 × $1.
  const admin = await session.openPage();
  await signInAsRoot(admin);
  await admin.goto('/topup');
  const row = admin.getByTestId(`topup-order-${params.out_trade_no}`);
  await row.getByRole('button', { name: '补单' }).click();
  const dialog = admin.getByRole('dialog', { name: '确认补单' });
  await shoot(admin, 'topup-admin-complete');
  await dialog.getByRole('button', { name: '确定' }).click();
  await admin.getByText('补单成功').waitFor();
  await expectText(row, /成功/);
  await page.reload();
  await expectText(page.getByTestId(`topup-order-${params.out_trade_no}`), /成功/);
});
