import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { notifyError } from '@/lib/notify';
import { readString, StorageKey, writeString } from '@/lib/storage';
import { useRegister } from './use-register';
import { useSendVerificationCode } from './use-send-verification-code';
import { useTurnstile } from './use-turnstile';

const MIN_PASSWORD_LENGTH = 8;

const EMPTY_REGISTRATION = {
  username: '',
  password: '',
  password2: '',
  email: '',
  verification_code: '',
};

/**
 * The registration form's state and checks: its fields, sending the mail code, and the
 * registration itself with the remembered invitation code and the Turnstile token.
 */
export function useRegisterForm() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const register = useRegister();
  const verification = useSendVerificationCode();
  const turnstile = useTurnstile();
  const [values, setValues] = useState(EMPTY_REGISTRATION);
  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  // An invitation link (?aff=) is remembered until the visitor registers.
  const aff = params.get('aff');
  useEffect(() => {
    if (aff) writeString(StorageKey.affCode, aff);
  }, [aff]);

  const sendCode = () => {
    if (!values.email.trim()) return notifyError(t('auth.enterEmail'));
    if (!turnstile.passed) return notifyError(t('auth.turnstileChecking'));
    verification.send.mutate({ email: values.email.trim(), turnstile: turnstile.token });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values.username.trim() || !values.password) {
      return notifyError(t('auth.enterUsernameAndPassword'));
    }
    if (values.password.length < MIN_PASSWORD_LENGTH)
      return notifyError(t('auth.passwordTooShort'));
    if (values.password !== values.password2) return notifyError(t('auth.passwordsDiffer'));
    if (!turnstile.passed) return notifyError(t('auth.turnstileChecking'));
    register.mutate({
      ...values,
      username: values.username.trim(),
      aff_code: readString(StorageKey.affCode) ?? '',
      turnstile: turnstile.token,
    });
  };

  return { field, sendCode, submit, register, verification, turnstile };
}
