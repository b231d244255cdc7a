export { logQueries } from './api/logs.api';
export { LogsPage } from './components/logs-page';
// Shared with the task logs' filter bars.
export { TimeRangeInputs } from './components/time-range-inputs';
export { parseTimeRange, timeRangeDraft } from './utils/time-range';
