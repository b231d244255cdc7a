import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FormValues, OptionKey } from '../../utils/option-form';
import { OptionsCard, type ChangeConfirmation } from './options-card';
import {
  EMAIL_DOMAIN_FIELDS,
  GITHUB_FIELDS,
  LOGIN_FIELDS,
  LINUXDO_FIELDS,
  OIDC_FIELDS,
  PAYMENT_FIELDS,
  SERVER_FIELDS,
  SMTP_FIELDS,
  SSL_PORT,
  STRIPE_FIELDS,
  TELEGRAM_FIELDS,
  TURNSTILE_FIELDS,
  WECHAT_FIELDS,
  WORKER_FIELDS,
} from './system-fields';

const NOTHING = new Set<OptionKey>();
const SSL_ONLY = new Set<OptionKey>(['SMTPSSLEnabled']);

/** Port 465 is implicit TLS: choosing it turns SSL on. */
const forceSsl = (values: FormValues): FormValues =>
  values['SMTPPort'] === SSL_PORT ? { ...values, SMTPSSLEnabled: 'true' } : values;
const sslLocked = (values: FormValues) => (values['SMTPPort'] === SSL_PORT ? SSL_ONLY : NOTHING);

/** /setting?tab=system (super administrator). */
export function SystemTab() {
  const { t } = useTranslation();
  const needsServerAddress = (server: FormValues) =>
    server['ServerAddress'] ? null : t('options.serverAddressFirst');
  const confirmLoginChange = (key: OptionKey, value: string): ChangeConfirmation | null =>
    key === 'PasswordLoginEnabled' && value === 'false'
      ? {
          title: t('options.passwordLoginOffTitle'),
          body: t('options.passwordLoginOffWarning'),
          confirm: t('options.passwordLoginOffConfirm'),
        }
      : null;

  return (
    <Stack>
      <OptionsCard name="systemGeneral" fields={SERVER_FIELDS} />
      <OptionsCard name="worker" hint="worker" fields={WORKER_FIELDS} />
      <OptionsCard
        name="payment"
        hint="payment"
        fields={PAYMENT_FIELDS}
        columns={3}
        precondition={needsServerAddress}
      />
      <OptionsCard
        name="stripe"
        hint="stripe"
        fields={STRIPE_FIELDS}
        columns={3}
        precondition={needsServerAddress}
      />
      <OptionsCard
        name="login"
        fields={LOGIN_FIELDS}
        columns={3}
        confirmChange={confirmLoginChange}
      />
      <OptionsCard name="emailDomain" hint="emailDomain" fields={EMAIL_DOMAIN_FIELDS} />
      <OptionsCard
        name="smtp"
        hint="smtp"
        fields={SMTP_FIELDS}
        columns={3}
        derive={forceSsl}
        locked={sslLocked}
      />
      <OptionsCard name="github" hint="github" fields={GITHUB_FIELDS} />
      <OptionsCard name="wechat" hint="wechat" fields={WECHAT_FIELDS} columns={3} />
      <OptionsCard name="telegram" hint="telegram" fields={TELEGRAM_FIELDS} />
      <OptionsCard name="turnstile" hint="turnstile" fields={TURNSTILE_FIELDS} />
      <OptionsCard name="oidc" hint="oidc" fields={OIDC_FIELDS} />
      <OptionsCard name="linuxdo" hint="linuxdo" fields={LINUXDO_FIELDS} />
    </Stack>
  );
}
