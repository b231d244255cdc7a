import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCopy } from '@/hooks/use-copy';
import { selfApi } from '../api/self.api';

/** A new system access token replaces the old one; it is copied right away. */
export function useGenerateAccessToken() {
  const { t } = useTranslation();
  const copy = useCopy();
  return useMutation({
    mutationFn: selfApi.generateAccessToken,
    onSuccess: (token) => void copy(token, t('setting.tokenCopied')),
  });
}
