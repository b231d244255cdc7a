import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { theme } from './theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'color-scheme' });

/**
 * Toasts start below the console's top bar, never over its buttons: AppShell publishes the bar's
 * height on :root while it is shown (0 on pages without it).
 */
const BELOW_TOP_BAR = {
  root: { top: 'calc(var(--app-shell-header-height, 0px) + var(--mantine-spacing-md))' },
};

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** Tests: no transitions, no portals delay. */
  env?: 'default' | 'test';
}

export function AppProviders({ queryClient, children, env = 'default' }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="light"
      env={env}
    >
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="top-right" styles={BELOW_TOP_BAR} />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
