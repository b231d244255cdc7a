import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TurnstileWidget, useTurnstile } from '@/features/auth';
import { notifyError } from '@/lib/notify';
import { useBindEmail } from '../hooks/use-bind-email';

/** Binds (or replaces) the user's email: a code is mailed to the address, then typed back here. */
export function EmailBindModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const turnstile = useTurnstile();
  const { sendCode, bind, remaining } = useBindEmail(() => {
    setCode('');
    onClose();
  });

  const requestCode = () => {
    if (!email.trim()) return notifyError(t('auth.enterEmail'));
    if (!turnstile.passed) return notifyError(t('auth.turnstileChecking'));
    sendCode.mutate({ email: email.trim(), turnstile: turnstile.token });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return notifyError(t('auth.enterEmail'));
    bind.mutate({ email: email.trim(), code: code.trim() });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('mail.bindTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={t('auth.email')}
              placeholder={t('mail.emailPlaceholder')}
              type="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <Button
              variant="default"
              onClick={requestCode}
              loading={sendCode.isPending}
              disabled={remaining > 0}
            >
              {remaining > 0 ? t('auth.retryIn', { seconds: remaining }) : t('mail.sendCode')}
            </Button>
          </Group>
          <TextInput
            label={t('auth.verificationCode')}
            placeholder={t('mail.codePlaceholder')}
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          {turnstile.enabled && (
            <TurnstileWidget siteKey={turnstile.siteKey} onVerify={turnstile.setToken} />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={bind.isPending} disabled={!code.trim()}>
              {t('mail.bind')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
