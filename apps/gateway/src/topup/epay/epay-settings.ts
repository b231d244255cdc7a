import type { OptionsCache } from '../../options/options.cache';

export interface EpaySettings {
  /** Where the browser is sent: PayAddress + '/submit.php'. */
  readonly submitUrl: string;
  readonly partnerId: string;
  /** The merchant key: in memory only, never logged or answered. */
  readonly key: string;
  readonly notifyUrl: string;
  readonly returnUrl: string;
}

const trimSlash = (url: string) => url.trim().replace(/\/+$/, '');

/**
 * Epay as configured, or null when PayAddress, EpayId or EpayKey is missing (new-api's
 * GetEpayClient). The notify URL is CustomCallbackAddress (else ServerAddress) + the notify path;
 * the return URL brings the user back to the wallet page.
 */
export function epaySettings(options: Pick<OptionsCache, 'get'>): EpaySettings | null {
  const payAddress = trimSlash(options.get('PayAddress'));
  const partnerId = options.get('EpayId').trim();
  const key = options.get('EpayKey');
  if (!payAddress || !partnerId || !key) return null;
  const server = trimSlash(options.get('ServerAddress'));
  const callback = trimSlash(options.get('CustomCallbackAddress')) || server;
  return {
    submitUrl: `${payAddress}/submit.php`,
    partnerId,
    key,
    notifyUrl: `${callback}/api/user/epay/notify`,
    returnUrl: `${server}/topup`,
  };
}
