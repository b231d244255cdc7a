export { DEFAULT_STATUS, statusQueries } from './api/status.api';
export { QuotaBalance } from './components/quota-balance';
export { useQuotaDisplay, useQuotaFormatter } from './hooks/use-quota-formatter';
export { useStatus } from './hooks/use-status';
