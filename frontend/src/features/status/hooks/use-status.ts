import { useQuery } from '@tanstack/react-query';
import type { StatusDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { DEFAULT_STATUS, statusQueries } from '../api/status.api';

/** The server status (stored copy first, then the live one), with defaults for missing keys. */
export function useStatus(): StatusDto {
  const { data } = useQuery(statusQueries.current());
  return useMemo(() => ({ ...DEFAULT_STATUS, ...data }), [data]);
}
