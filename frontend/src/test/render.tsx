import { render } from '@testing-library/react';
import type { LoginResultDto, StatusDto } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers';
import { routes as appRoutes } from '@/app/routes';
import { installSessionExpiry } from '@/app/session-expiry';
import { DEFAULT_STATUS } from '@/features/status';
import { createQueryClient } from '@/lib/query-client';
import { setSessionUser } from '@/lib/session';
import { StorageKey, writeJson } from '@/lib/storage';

export const ordinaryUser: LoginResultDto = {
  id: 2,
  username: 'alice',
  display_name: 'Alice',
  role: 1,
  status: 1,
  group: 'default',
  default_password: false,
};

export const rootUser: LoginResultDto = {
  ...ordinaryUser,
  id: 1,
  username: 'root',
  display_name: 'Root User',
  role: 100,
};

interface RenderOptions {
  /** Where the memory router starts. */
  route?: string;
  /** Signed-in user stored locally before rendering. */
  user?: LoginResultDto;
  /** Status stored locally before rendering (merged over the defaults). */
  status?: Partial<StatusDto>;
}

function mount(routes: RouteObject[], { route = '/', user, status }: RenderOptions) {
  if (user) setSessionUser(user);
  if (status) writeJson(StorageKey.status, { ...DEFAULT_STATUS, ...status });

  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  installSessionExpiry(queryClient, router);
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/**
 * Renders one screen with the app's real providers (Mantine, Query, modals, notifications, i18n)
 * under a memory router; `path` is the pattern it is mounted at, other paths render nothing.
 */
export function renderWithProviders(
  ui: ReactNode,
  options: RenderOptions & { path?: string } = {},
) {
  const { path = '*' } = options;
  // Anywhere else the screen navigates to renders nothing (and raises no routing error).
  const elsewhere = path === '*' ? [] : [{ path: '*', element: null }];
  return mount([{ path, element: ui }, ...elsewhere], options);
}

/** Renders the whole console (shell and every route) at `options.route`. */
export function renderApp(options: RenderOptions = {}) {
  return mount(appRoutes, options);
}
