export * from './password-attempt.decider';
