import { isSkipped } from './import-mapping';
import { mapRedemptionRow } from './redemption-mapping';

const AT = '2026-01-15T08:00:00.000Z';
const KEY = '0123456789abcdef0123456789abcdef';
const row = (over: Record<string, unknown> = {}) => ({
  id: 4,
  user_id: 1,
  key: KEY,
  status: 1,
  name: 'gift',
  quota: 500000,
  created_time: 1_700_000_000,
  redeemed_time: 0,
  ...over,
});
const map = (over: Record<string, unknown> = {}, project: 'one-api' | 'new-api' = 'one-api') => {
  const mapped = mapRedemptionRow(project, row(over), AT);
  if (isSkipped(mapped)) throw new Error(mapped.skipped.reason);
  return mapped;
};

describe('mapRedemptionRow', () => {
  it('maps an unused code whole', () => {
    expect(map().redemption).toEqual({
      redemptionId: 4,
      createdBy: 1,
      key: KEY,
      name: 'gift',
      quota: 500000,
      status: 1,
      createdTime: 1_700_000_000,
      redeemedTime: 0,
      usedUserId: 0,
      deleted: false,
      source: { project: 'one-api', table: 'redemptions', rowId: 4, importedAt: AT },
    });
  });

  it('a used new-api code keeps who and when; a soft-deleted one is deleted', () => {
    const used = map({ status: 3, redeemed_time: 1_700_000_500, used_user_id: 7 }, 'new-api');
    expect(used.redemption).toMatchObject({
      status: 3,
      redeemedTime: 1_700_000_500,
      usedUserId: 7,
    });
    expect(map({ deleted_at: '2025-01-01 00:00:00' }, 'new-api').redemption.deleted).toBe(true);
  });

  it('trims a padded key (PostgreSQL char(32)) and skips an empty one', () => {
    expect(map({ key: `${KEY}   ` }).redemption.key).toBe(KEY);
    expect(isSkipped(mapRedemptionRow('one-api', row({ key: ' ' }), AT))).toBe(true);
  });

  it('reports an unknown status, a negative quota and an empty name, never the key', () => {
    const m = map({ status: 9, quota: -5, name: '' });
    expect(m.redemption).toMatchObject({ status: 2, quota: 0, name: 'code-4' });
    expect(m.items.map((i) => i.field).sort()).toEqual(['name', 'quota', 'status']);
    expect(JSON.stringify(m.items)).not.toContain(KEY);
  });
});
