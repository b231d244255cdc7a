import { Alert, Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStatus } from '@/features/status';

/** On the login page while setup is not done (root still on its default password). */
export function SetupOffer() {
  const { t } = useTranslation();
  const { setup } = useStatus();
  if (setup) return null;
  return (
    <Alert color="yellow" title={t('setup.title')}>
      {t('setup.offer')}{' '}
      <Anchor component={Link} to="/setup">
        {t('setup.start')}
      </Anchor>
    </Alert>
  );
}
