import { useState } from 'react';
import { useStatus } from '@/features/status';

/** Human-check state of one form: on only when the status enables it. */
export function useTurnstile() {
  const { turnstile_check, turnstile_site_key } = useStatus();
  const [token, setToken] = useState('');
  return {
    enabled: turnstile_check,
    siteKey: turnstile_site_key,
    token,
    setToken,
    /** False while the check is on and not yet passed. */
    passed: !turnstile_check || token !== '',
  };
}
