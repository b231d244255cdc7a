import { lazy, type ReactNode, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { NotFoundPage } from '@/components/not-found-page';
import {
  GithubCallbackPage,
  LinuxDoCallbackPage,
  OidcCallbackPage,
  LoginPage,
  PasswordResetConfirmPage,
  PasswordResetPage,
  RegisterPage,
  RequireAuth,
} from '@/features/auth';
import { ChannelsPage } from '@/features/channels';
import { Chat2LinkPage, ChatPage } from '@/features/chat';
import { AboutPage, HomePage } from '@/features/home';
import { SettingPage } from '@/features/setting';
import { SetupPage } from '@/features/setup';
import { LogsPage } from '@/features/logs';
import { PlaygroundPage } from '@/features/playground';
import { RedemptionsPage } from '@/features/redemptions';
import { TokensPage } from '@/features/tokens';
import { EditUserPage, UsersPage } from '@/features/users';
import { PricingPage } from '@/features/pricing';
import { MidjourneyPage, TaskPage } from '@/features/tasks';
import { WalletPage } from '@/features/wallet';
import { RootLayout } from './root-layout';

// The dashboard brings the chart library (recharts): loaded when /detail is first opened.
const DashboardPage = lazy(() =>
  import('@/features/dashboard').then((m) => ({ default: m.DashboardPage })),
);

const guarded = (element: ReactNode, admin = false) => (
  <RequireAuth admin={admin}>{element}</RequireAuth>
);

/** The console's routes; pricing, about, login, register, reset, home, chat and oauth are public. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/setup', element: <SetupPage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/reset', element: <PasswordResetPage /> },
      { path: '/user/reset', element: <PasswordResetConfirmPage /> },
      { path: '/oauth/github', element: <GithubCallbackPage /> },
      { path: '/oauth/oidc', element: <OidcCallbackPage /> },
      { path: '/oauth/linuxdo', element: <LinuxDoCallbackPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/pricing', element: <PricingPage /> },
      { path: '/chat/:id?', element: <ChatPage /> },
      { path: '/chat2link', element: <Chat2LinkPage /> },
      { path: '/setting', element: guarded(<SettingPage />) },
      { path: '/user', element: guarded(<UsersPage />, true) },
      { path: '/user/edit', element: guarded(<EditUserPage />) },
      { path: '/user/edit/:id', element: guarded(<EditUserPage />, true) },
      { path: '/channel', element: guarded(<ChannelsPage />, true) },
      { path: '/channel/add', element: guarded(<ChannelsPage />, true) },
      { path: '/channel/edit/:id', element: guarded(<ChannelsPage />, true) },
      { path: '/redemption', element: guarded(<RedemptionsPage />, true) },
      { path: '/token', element: guarded(<TokensPage />) },
      { path: '/playground', element: guarded(<PlaygroundPage />) },
      { path: '/topup', element: guarded(<WalletPage />) },
      { path: '/log', element: guarded(<LogsPage />) },
      {
        path: '/detail',
        element: guarded(
          <Suspense fallback={null}>
            <DashboardPage />
          </Suspense>,
        ),
      },
      { path: '/midjourney', element: guarded(<MidjourneyPage />) },
      { path: '/task', element: guarded(<TaskPage />) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
