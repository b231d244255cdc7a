import { EMPTY_CHANNEL_CONFIG } from '@tollgate/domain';
import { recordedEvent } from '@tollgate/testing/recorded-event';
import { SecretBox } from '../infrastructure/secret-box';
import { maskChannelKeys } from './channel-key-masking';
import { describeStream } from './describe-event';

const box = new SecretBox('history-spec-secret');
const FIRST = 'baiduApiKey0123|baiduSecretKey4567';
const SECOND = 'baiduApiKey8901|baiduSecretKey2345';

describe('maskChannelKeys: a channel history recorded before keys were masked', () => {
  const events = [
    recordedEvent('ChannelCreated', {
      channelId: 1,
      config: { ...EMPTY_CHANNEL_CONFIG, type: 15, name: 'baidu' },
      key: box.seal(FIRST),
      status: 1,
      createdTime: 1,
    }),
    recordedEvent('ChannelTested', {
      channelId: 1,
      model: 'ernie',
      success: false,
      responseTimeMs: 9,
      message: 'client_secret=baiduSecretKey4567 rejected',
      testTime: 2,
    }),
    recordedEvent('ChannelUpdated', { channelId: 1, changes: {}, key: box.seal(SECOND) }),
    recordedEvent('ChannelStatusChanged', {
      channelId: 1,
      from: 1,
      to: 3,
      reason: `unauthorized: client_id=baiduApiKey8901 (before: ${FIRST})`,
      time: 3,
    }),
  ];

  it('masks every key the channel has had, part by part, in reasons and values', () => {
    const masked = maskChannelKeys(events, describeStream(events), (s) => box.open(s));
    expect(masked.map((d) => d.reason)).toEqual([
      '',
      'client_secret=*** rejected',
      '',
      'unauthorized: client_id=*** (before: ***)',
    ]);
    expect(masked[3]!.changes).toEqual([{ field: 'status', before: 1, after: 3 }]);
  });

  it('leaves the history as it is when no key can be opened (another server secret)', () => {
    const described = describeStream(events);
    const masked = maskChannelKeys(events, described, () => {
      throw new Error('unsupported state or unable to authenticate data');
    });
    expect(masked).toBe(described);
  });
});
