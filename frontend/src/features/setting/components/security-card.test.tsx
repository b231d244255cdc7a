import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, rootUser } from '@/test/render';
import { SecurityCard } from './security-card';

describe('SecurityCard', () => {
  it('opens the password dialog when the address asks for it, then forgets the ask', async () => {
    mockApi({});
    const { router } = renderWithProviders(<SecurityCard username="root" />, {
      route: '/setting?tab=personal&dialog=password',
      user: rootUser,
    });
    expect(await screen.findByRole('dialog', { name: '修改密码' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=personal');
  });

  it('keeps the dialog closed otherwise', async () => {
    mockApi({});
    renderWithProviders(<SecurityCard username="root" />, {
      route: '/setting?tab=personal',
      user: rootUser,
    });
    expect(await screen.findByRole('button', { name: '修改密码' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
