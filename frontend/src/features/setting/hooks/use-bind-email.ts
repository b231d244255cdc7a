import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCountdown } from '@/hooks/use-countdown';
import { notifySuccess } from '@/lib/notify';
import { selfApi, selfQueries } from '../api/self.api';

/** The email bind dialog: mail a code (then 30 s before another), bind with it. */
export function useBindEmail(onBound: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const countdown = useCountdown(30);
  const sendCode = useMutation({
    mutationFn: ({ email, turnstile }: { email: string; turnstile: string }) =>
      selfApi.sendEmailCode(email, turnstile),
    onSuccess: () => {
      notifySuccess(t('auth.codeSent'));
      countdown.start();
    },
  });
  const bind = useMutation({
    mutationFn: ({ email, code }: { email: string; code: string }) =>
      selfApi.bindEmail(email, code),
    onSuccess: async () => {
      notifySuccess(t('mail.bound'));
      await queryClient.invalidateQueries({ queryKey: selfQueries.all });
      onBound();
    },
  });
  return { sendCode, bind, remaining: countdown.remaining };
}
