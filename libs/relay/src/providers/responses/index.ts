export { RESPONSES_OVER_CHAT } from './responses-ingress';
