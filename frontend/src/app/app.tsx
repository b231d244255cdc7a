import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { AppProviders } from './providers';
import { routes } from './routes';
import { installSessionExpiry } from './session-expiry';

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);
installSessionExpiry(queryClient, router);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
