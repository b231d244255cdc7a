export { logQueries } from './api/logs.api';
export { LogsPage } from './components/logs-page';
