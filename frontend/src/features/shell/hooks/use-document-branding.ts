import { useEffect } from 'react';
import { useStatus } from '@/features/status';

/** The tab title and icon follow the configured system name and logo. */
export function useDocumentBranding(): void {
  const { system_name, logo } = useStatus();

  useEffect(() => {
    if (system_name) document.title = system_name;
  }, [system_name]);

  useEffect(() => {
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon && logo) icon.href = logo;
  }, [logo]);
}
