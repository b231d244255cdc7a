import { within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { mockApi } from '@/test/mock-api';
import { ordinaryUser, renderWithProviders } from '@/test/render';
import { QuotaBalance } from './quota-balance';

const RED = 'var(--mantine-color-red-text)';

function show(quota: number, options: { badgeColor?: string; currency?: boolean } = {}) {
  mockApi({});
  const { container } = renderWithProviders(
    <div data-testid="balance">
      <QuotaBalance quota={quota} badgeColor={options.badgeColor} />
    </div>,
    { user: ordinaryUser, status: { display_in_currency: options.currency ?? true } },
  );
  return within(container).getByTestId('balance');
}

describe('QuotaBalance', () => {
  afterEach(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  it('shows a balance of zero or more as the formatted figure alone', () => {
    const balance = show(1_250_000);
    expect(balance).toHaveTextContent(/^\$2\.50$/);
    expect(within(balance).queryByTestId('debt-badge')).not.toBeInTheDocument();
    expect(show(0)).toHaveTextContent(/^\$0\.00$/);
  });

  it('shows a debt in red, sign first, with a 欠费 badge that says what it means', () => {
    const balance = show(-500_000);
    const figure = within(balance).getByText('-$1.00');
    expect(figure).toHaveStyle({ color: RED });
    const badge = within(balance).getByTestId('debt-badge');
    expect(badge).toHaveTextContent('欠费');
    expect(badge).toHaveAttribute('title', '额度已为负数：补足之前，后续请求都会被拒绝');
  });

  it('never shows a debt below a cent as nothing owed', () => {
    const balance = show(-200);
    expect(within(balance).getByText('-$0.0004')).toHaveStyle({ color: RED });
    expect(within(balance).getByTestId('debt-badge')).toBeInTheDocument();
  });

  it('marks a debt in quota units too', () => {
    const balance = show(-25_000, { currency: false });
    expect(within(balance).getByText('-25,000')).toHaveStyle({ color: RED });
    expect(within(balance).getByTestId('debt-badge')).toBeInTheDocument();
  });

  it('as a badge: the given colour, red in debt', () => {
    const positive = show(500_000, { badgeColor: 'blue' });
    expect(within(positive).getByText('$1.00').closest('.mantine-Badge-root')).toHaveStyle({
      '--badge-color': 'var(--mantine-color-blue-light-color)',
    });
    const debt = show(-500_000, { badgeColor: 'blue' });
    expect(within(debt).getByText('-$1.00').closest('.mantine-Badge-root')).toHaveStyle({
      '--badge-color': 'var(--mantine-color-red-light-color)',
    });
    expect(within(debt).getByTestId('debt-badge')).toHaveTextContent('欠费');
  });

  it('speaks English', async () => {
    await i18n.changeLanguage('en');
    const badge = within(show(-500_000)).getByTestId('debt-badge');
    expect(badge).toHaveTextContent('In debt');
    expect(badge).toHaveAttribute(
      'title',
      'Below zero: further calls are refused until the debt is covered',
    );
  });
});
