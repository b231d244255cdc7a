export * from './topup.events';
export * from './topup-pricing';
export * from './topup.decider';
