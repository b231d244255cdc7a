import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCountdown } from '@/hooks/use-countdown';
import { notifySuccess } from '@/lib/notify';
import { authApi } from '../api/auth.api';

/** Mails a registration code; the button then waits 30 seconds. */
export function useSendVerificationCode() {
  const { t } = useTranslation();
  const countdown = useCountdown(30);
  const send = useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile: string }) =>
      authApi.sendVerificationCode(email, turnstile),
    onSuccess: () => {
      notifySuccess(t('auth.codeSent'));
      countdown.start();
    },
  });
  return { send, remaining: countdown.remaining };
}
