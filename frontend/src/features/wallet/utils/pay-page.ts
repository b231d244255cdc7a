/**
 * Sends the browser to the payment gateway with the signed parameters in the query string, in a
 * new tab (the same tab when the browser refuses the pop-up). new-api posts a hidden form instead;
 * the console's policy keeps forms on this origin (`form-action 'self'`), and Epay's submit.php
 * takes the same parameters by GET.
 */
export function payPageUrl(action: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${action}${action.includes('?') ? '&' : '?'}${query}`;
}

export function openPayPage(action: string, params: Record<string, string>): void {
  const url = payPageUrl(action, params);
  const opened = window.open(url, '_blank');
  if (opened) opened.opener = null;
  else window.location.assign(url);
}

/** Stripe's cut: about 3 % + $0.30 of what is paid. */
export const STRIPE_FEE_RATE = 0.03;
export const STRIPE_FEE_FIXED = 0.3;

/** What reaches the balance of a Stripe payment of `amount` dollars: amount − 3 % − 0.30. */
export function stripeCredited(amount: number): number {
  return Math.max(0, amount - amount * STRIPE_FEE_RATE - STRIPE_FEE_FIXED);
}
