import {
  DEFAULT_REDEMPTION_QUOTA,
  MAX_REDEMPTION_BATCH,
  REDEMPTION_NAME_MAX_LENGTH,
  type CreateRedemptionRequest,
} from '@tollgate/contracts';
import type { ParseKeys } from 'i18next';

export interface RedemptionFormValues {
  name: string;
  quota: number | string;
  count: number | string;
}

/** Defaults: quota 100000, count 1. */
export const emptyRedemptionForm = (): RedemptionFormValues => ({
  name: '',
  quota: DEFAULT_REDEMPTION_QUOTA,
  count: 1,
});

type Result =
  | { ok: true; request: CreateRedemptionRequest }
  | { ok: false; error: ParseKeys; field: keyof RedemptionFormValues };

const toInteger = (value: number | string) =>
  typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);

/** Quota and count are parsed to integers; the first fault names its field. */
export function buildRedemptionRequest(values: RedemptionFormValues, creating: boolean): Result {
  const name = values.name.trim();
  if (!name) return { ok: false, error: 'redemptions.nameRequired', field: 'name' };
  if ([...name].length > REDEMPTION_NAME_MAX_LENGTH) {
    return { ok: false, error: 'redemptions.nameTooLong', field: 'name' };
  }
  const quota = toInteger(values.quota);
  if (!Number.isInteger(quota) || quota <= 0)
    return { ok: false, error: 'redemptions.badQuota', field: 'quota' };
  const request: CreateRedemptionRequest = { name, quota };
  if (creating) {
    const count = toInteger(values.count);
    if (!Number.isInteger(count) || count < 1 || count > MAX_REDEMPTION_BATCH) {
      return { ok: false, error: 'redemptions.badCount', field: 'count' };
    }
    request.count = count;
  }
  return { ok: true, request };
}
