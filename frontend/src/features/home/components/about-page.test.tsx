import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, ok } from '@/test/mock-api';
import { renderWithProviders } from '@/test/render';
import { AboutPage } from './about-page';

describe('about page', () => {
  it('links the API reference under the default text', async () => {
    mockApi({ 'GET /api/about': () => ok('') });
    renderWithProviders(<AboutPage />, { route: '/about' });

    const link = await screen.findByRole('link', { name: 'API 参考' });
    expect(link).toHaveAttribute('href', '/api/docs');
    expect(
      screen.getByText('管理员暂未设置关于内容，可在设置页面设置，支持 HTML 与 Markdown。'),
    ).toBeInTheDocument();
  });

  it("links the API reference under the administrator's content", async () => {
    mockApi({ 'GET /api/about': () => ok('Run by **ACME**') });
    renderWithProviders(<AboutPage />, { route: '/about' });

    expect(await screen.findByText('ACME')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'API 参考' })).toHaveAttribute('href', '/api/docs');
  });
});
