export { DEFAULT_STATUS, statusQueries } from './api/status.api';
export { useQuotaFormatter } from './hooks/use-quota-formatter';
export { useStatus } from './hooks/use-status';
