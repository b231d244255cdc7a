import { Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';

/** Custom footer HTML from the status (set by the super administrator), else the credit line. */
export function Footer() {
  const { t } = useTranslation();
  const { footer_html, system_name, version } = useStatus();

  if (footer_html) {
    return (
      <Box
        component="footer"
        py="md"
        ta="center"
        fz="sm"
        data-testid="footer"
        dangerouslySetInnerHTML={{ __html: footer_html }}
      />
    );
  }
  return (
    <Box component="footer" py="md" ta="center" data-testid="footer">
      <Text size="sm" c="dimmed">
        {t('shell.defaultFooter', { name: system_name, version: version ? `v${version}` : '' })}
      </Text>
    </Box>
  );
}
