import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCountdown } from '@/hooks/use-countdown';
import { notifySuccess } from '@/lib/notify';
import { authApi } from '../api/auth.api';

/** Sends the reset mail; the submit button counts down 30 seconds before a retry. */
export function useSendResetEmail() {
  const { t } = useTranslation();
  const countdown = useCountdown(30);
  const send = useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile: string }) =>
      authApi.sendResetEmail(email, turnstile),
    onSuccess: () => {
      notifySuccess(t('auth.resetMailSent'));
      countdown.start();
    },
  });
  return { send, remaining: countdown.remaining };
}
