import type { RedemptionImported } from '@tollgate/domain';
import { appendEvents } from '@tollgate/testing/append-events';
import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { REDEMPTIONS, type RedemptionDocument } from './redemption.document';
import { redemptionListProjection } from './redemption-list.projection';

const meta = {
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: '2026-01-15T08:00:00.000Z',
};
const imported = (
  redemptionId: number,
  over: Partial<RedemptionImported['data']> = {},
): RedemptionImported => ({
  type: 'RedemptionImported',
  data: {
    redemptionId,
    createdBy: 1,
    name: `code-${redemptionId}`,
    quota: 500,
    status: 1,
    sealedKey: { cipher: `cipher-${redemptionId}`, hash: 'h' },
    keyHash: `sha-${redemptionId}`,
    createdTime: 100,
    redeemedTime: 0,
    usedUserId: 0,
    deleted: false,
    source: { project: 'new-api', table: 'redemptions', rowId: redemptionId, importedAt: 'x' },
    ...over,
  },
});

describe('redemptions projection: imported codes', () => {
  it('lists an imported code with its status, redeemer and time; a deleted one not at all', async () => {
    const host = await openProjectionHost([redemptionListProjection]);
    try {
      await appendEvents(host.events, 'redemption-1', [imported(1)], meta);
      await appendEvents(
        host.events,
        'redemption-2',
        [imported(2, { status: 3, redeemedTime: 150, usedUserId: 7 })],
        meta,
      );
      await appendEvents(host.events, 'redemption-3', [imported(3, { deleted: true })], meta);
      const last = await appendEvents(
        host.events,
        'redemption-1',
        [
          {
            type: 'RedemptionRedeemed',
            data: { redemptionId: 1, userId: 9, quota: 500, redeemedTime: 200 },
          },
        ],
        meta,
      );
      expect(await host.host.waitFor(last.position, 2000)).toBe(true);
      const codes = host.read.collection<RedemptionDocument>(REDEMPTIONS);
      expect(await codes.get('1')).toMatchObject({
        id: 1,
        key_hash: 'sha-1',
        key_cipher: 'cipher-1',
        status: 3,
        used_user_id: 9,
        redeemed_time: 200,
      });
      expect(await codes.get('2')).toMatchObject({
        status: 3,
        used_user_id: 7,
        redeemed_time: 150,
      });
      expect(await codes.get('3')).toBeNull();
    } finally {
      await closeProjectionHost(host);
    }
  });
});
