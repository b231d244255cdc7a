import { useQuery } from '@tanstack/react-query';
import { optionQueries } from '../api/options.api';

/** The stored options (root only), key → value; undefined while loading. */
export function useOptionValues() {
  return useQuery(optionQueries.values()).data;
}
