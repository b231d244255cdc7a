import { AppLayout, useDocumentBranding } from '@/features/shell';
import { useLiveUpdates } from './use-live-updates';

/** The route tree's root: app-wide effects, then the console frame. */
export function RootLayout() {
  useDocumentBranding();
  useLiveUpdates();
  return <AppLayout />;
}
