export { SetupOffer } from './components/setup-offer';
export { SetupPage } from './components/setup-page';
