import { Badge } from '@mantine/core';
import { TokenStatus, type TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

/** Spec 001 §4: a token with model limits reads "enabled, limit models". */
export function TokenStatusTag({
  token,
}: {
  token: Pick<TokenDto, 'status' | 'model_limits_enabled'>;
}) {
  const { t } = useTranslation();
  switch (token.status) {
    case TokenStatus.Enabled:
      return token.model_limits_enabled ? (
        <Badge miw="max-content" variant="light" color="green">
          {t('tokens.status.limitModels')}
        </Badge>
      ) : (
        <Badge miw="max-content" variant="light" color="green">
          {t('tokens.status.enabled')}
        </Badge>
      );
    case TokenStatus.Disabled:
      return (
        <Badge miw="max-content" variant="light" color="red">
          {t('tokens.status.disabled')}
        </Badge>
      );
    case TokenStatus.Expired:
      return (
        <Badge miw="max-content" variant="light" color="yellow">
          {t('tokens.status.expired')}
        </Badge>
      );
    case TokenStatus.Exhausted:
      return (
        <Badge miw="max-content" variant="light" color="gray">
          {t('tokens.status.exhausted')}
        </Badge>
      );
    default:
      return (
        <Badge miw="max-content" variant="light" color="dark">
          {t('tokens.status.unknown')}
        </Badge>
      );
  }
}
