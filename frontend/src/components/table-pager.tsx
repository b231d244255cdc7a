import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZE_OPTIONS } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const SIZE_OPTIONS = PAGE_SIZE_OPTIONS.map(String);

interface TablePagerProps {
  /** Rows in all pages; omitted for lists that have no total (tokens). */
  total?: number;
  /** What stands left of the pager when there is no total (channels: the page number). */
  summary?: ReactNode;
  /** 1-based. */
  page: number;
  pageCount: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Absent for lists of a fixed page size (the task logs): no size choice then. */
  onPageSizeChange?: (pageSize: number) => void;
}

/** The footer of every paged table: total, page size (10/20/50/100) and pages. */
export function TablePager({
  total,
  summary,
  page,
  pageCount,
  pageSize,
  onPageChange,
  onPageSizeChange,
}: TablePagerProps) {
  const { t } = useTranslation();
  const left = total !== undefined ? t('common.total', { count: total }) : summary;
  return (
    <Group justify={left === undefined ? 'flex-end' : 'space-between'}>
      {left !== undefined && (
        <Text size="sm" c="dimmed">
          {left}
        </Text>
      )}
      <Group gap="sm">
        {onPageSizeChange && (
          <Select
            aria-label={t('common.pageSize')}
            data={SIZE_OPTIONS.map((size) => ({
              value: size,
              label: t('common.perPage', { size }),
            }))}
            value={String(pageSize)}
            onChange={(value) => value && onPageSizeChange(Number(value))}
            allowDeselect={false}
            w={130}
          />
        )}
        <Pagination
          total={pageCount}
          value={Math.min(page, pageCount)}
          onChange={onPageChange}
          getControlProps={(control) => ({ 'aria-label': t(`common.pager.${control}`) })}
        />
      </Group>
    </Group>
  );
}
