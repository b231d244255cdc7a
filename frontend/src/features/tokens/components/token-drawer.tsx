import { Drawer } from '@mantine/core';
import type { TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { TokenForm } from './token-form';

interface TokenDrawerProps {
  opened: boolean;
  /** The token being edited, or null to create. */
  token: TokenDto | null;
  /** Changes each time the drawer opens, so the form starts from fresh values. */
  formKey: number;
  onClose: () => void;
}

/** Side drawer that creates or edits a token. */
export function TokenDrawer({ opened, token, formKey, onClose }: TokenDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="lg"
      title={token ? t('tokens.drawer.editTitle') : t('tokens.drawer.createTitle')}
    >
      <TokenForm key={formKey} token={token ?? undefined} onDone={onClose} />
    </Drawer>
  );
}
