import { SimpleGrid, Stack } from '@mantine/core';
import { useSelf } from '../hooks/use-self';
import { AccessTokenCard } from './access-token-card';
import { AccountCard } from './account-card';
import { BindingsCard } from './bindings-card';
import { InvitationCard } from './invitation-card';
import { ModelsCard } from './models-card';
import { NotificationCard } from './notification-card';
import { SecurityCard } from './security-card';

export function PersonalTab() {
  const { data: user } = useSelf();
  return (
    <Stack>
      <AccountCard user={user} />
      <ModelsCard />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <InvitationCard user={user} />
        <BindingsCard user={user} />
        <AccessTokenCard />
        <SecurityCard username={user?.username ?? ''} />
      </SimpleGrid>
      <NotificationCard user={user} />
    </Stack>
  );
}
