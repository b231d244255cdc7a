export { dashboardQueries } from './api/dashboard.api';
export { DashboardPage } from './components/dashboard-page';
