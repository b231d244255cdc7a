export * from './billing.decider';
export * from './billing.events';
export * from './budget-period';
export * from './balance-lease';
