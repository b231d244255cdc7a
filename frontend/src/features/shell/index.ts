export { AppLayout } from './components/app-layout';
export { useDocumentBranding } from './hooks/use-document-branding';
export type { NavLabelKey } from './utils/sidebar-items';
