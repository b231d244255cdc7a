import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import type { FailureRateDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

/** A rate at or above this share of failed calls is shown red; any failure at all is orange. */
const ALARMING_RATE = 0.1;
const PERCENT = 100;

const rateOf = (row: FailureRateDto): number => (row.calls > 0 ? row.failed / row.calls : 0);

function RateBadge({ row }: { row: FailureRateDto }) {
  const rate = rateOf(row);
  const color = rate >= ALARMING_RATE ? 'red' : rate > 0 ? 'orange' : 'green';
  return (
    <Badge variant="light" color={color} miw="max-content">
      {(rate * PERCENT).toFixed(1)}%
    </Badge>
  );
}

/**
 * Failed ÷ all calls in the range: per channel for admins, per model of one's own calls. Rows with
 * the most calls first (the server's order).
 */
export function FailureRates({ rows, admin }: { rows: FailureRateDto[]; admin: boolean }) {
  const { t } = useTranslation();
  const subject = admin ? t('dashboard.failures.channel') : t('dashboard.failures.model');
  return (
    <Paper withBorder p="md" radius="md" data-testid="dashboard-failures">
      <Title order={4} mb="sm">
        {admin ? t('dashboard.failures.titleChannels') : t('dashboard.failures.titleModels')}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('dashboard.failures.none')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={320}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{subject}</Table.Th>
                <Table.Th ta="right">{t('dashboard.failures.calls')}</Table.Th>
                <Table.Th ta="right">{t('dashboard.failures.failed')}</Table.Th>
                <Table.Th ta="right">{t('dashboard.failures.rate')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={`${row.channel_id}:${row.key}`} data-testid="failure-rate-row">
                  <Table.Td>{row.key}</Table.Td>
                  <Table.Td ta="right">{row.calls.toLocaleString('en-US')}</Table.Td>
                  <Table.Td ta="right">{row.failed.toLocaleString('en-US')}</Table.Td>
                  <Table.Td ta="right">
                    <RateBadge row={row} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
