export { redemptionQueries } from './api/redemptions.api';
export { RedemptionsPage } from './components/redemptions-page';
