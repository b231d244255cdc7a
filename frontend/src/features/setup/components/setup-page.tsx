import { Alert, Card, Container, Loader, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { setupQueries } from '../api/setup.api';
import { SetupForm } from './setup-form';

/**
 * /setup: new-api's first-run wizard. Offered while root still has its default password; sets the
 * administrator's username and password and the usage mode, then sends to the login page.
 */
export function SetupPage() {
  const { t } = useTranslation();
  const setup = useQuery(setupQueries.status());

  if (setup.isPending) return <Loader m="xl" />;
  if (setup.data?.status) return <Navigate to="/login" replace />;

  return (
    <Container size="sm" py="xl">
      <Card withBorder radius="md" p="lg">
        <SetupForm>
          <Title order={2}>{t('setup.title')}</Title>
          {setup.data?.database_type === 'sqlite' && (
            <Alert color="yellow">{t('setup.sqliteWarning')}</Alert>
          )}
        </SetupForm>
      </Card>
    </Container>
  );
}
