import { useEffect, useRef } from 'react';
import { useExternalScript } from '@/hooks/use-external-script';

interface TurnstileApi {
  render(
    element: HTMLElement,
    options: { sitekey: string; callback: (token: string) => void; 'expired-callback': () => void },
  ): string;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

const SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

/** Cloudflare's human check; `onVerify` gets the token, or '' when it expires. */
export function TurnstileWidget({
  siteKey,
  onVerify,
}: {
  siteKey: string;
  onVerify: (token: string) => void;
}) {
  const ready = useExternalScript(SCRIPT);
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const api = window.turnstile;
    if (!ready || !api || !container.current) return;
    const id = api.render(container.current, {
      sitekey: siteKey,
      callback: onVerify,
      'expired-callback': () => onVerify(''),
    });
    return () => api.remove(id);
  }, [ready, siteKey, onVerify]);

  return <div ref={container} data-testid="turnstile" />;
}
