import { AppLayout } from '@/features/shell/components/app-layout';
import { useDocumentBranding } from '@/features/shell/hooks/use-document-branding';
import { useLiveUpdates } from './use-live-updates';

/** The route tree's root: app-wide effects, then the console frame. */
export function RootLayout() {
  useDocumentBranding();
  useLiveUpdates();
  return <AppLayout />;
}
