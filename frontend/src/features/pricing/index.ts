export { pricingQueries } from './api/pricing.api';
export { PricingPage } from './components/pricing-page';
