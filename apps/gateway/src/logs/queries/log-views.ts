/**
 * How a stored row is answered: whole for admins (the admin who edited a quota and the channel's
 * present name resolved), or as a user may see their own (new-api hides the channel from users).
 */
import type { LogDto } from '@tollgate/contracts';
import type { ReadStore } from '@tollgate/read-store';
import { CHANNELS, type ChannelDocument } from '../../channels/channel.document';
import { USERS, type UserDocument } from '../../users/user.document';
import type { LogRow } from '../log.document';

/** What a user may see of their own row: no channel (id or name), retries or admin details. */
export function forSelf(doc: LogRow): LogDto {
  const { admin_id: _a, ...row } = doc;
  let other = row.other;
  if (other) {
    const parsed = JSON.parse(other) as Record<string, unknown>;
    delete parsed['admin_info'];
    other = JSON.stringify(parsed);
  }
  return { ...row, channel: 0, channel_name: '', retry: '', other };
}

/** Admin rows: the editing admin's name in `other`, the channel's name as it is now. */
export async function forAdmins(readStore: ReadStore, docs: LogRow[]): Promise<LogDto[]> {
  const adminIds = idsOf(docs.map((d) => d.admin_id));
  const channelIds = idsOf(docs.map((d) => d.channel));
  const [admins, channels] = await Promise.all([
    adminIds.length
      ? readStore.collection<UserDocument>(USERS).find({ id: { $in: adminIds } })
      : [],
    channelIds.length
      ? readStore.collection<ChannelDocument>(CHANNELS).find({ id: { $in: channelIds } })
      : [],
  ]);
  const adminNames = new Map(admins.map((a) => [a.id, a.username]));
  const channelNames = new Map(channels.map((c) => [c.id, c.name]));
  return docs.map(({ admin_id, ...row }) => {
    const channel_name = channelNames.get(row.channel) ?? '';
    if (!admin_id) return { ...row, channel_name };
    const other = row.other ? (JSON.parse(row.other) as Record<string, unknown>) : {};
    other['admin_info'] = { admin_id, admin_username: adminNames.get(admin_id) ?? '' };
    return { ...row, channel_name, other: JSON.stringify(other) };
  });
}

/** The distinct ids worth a lookup (0 = none). */
const idsOf = (values: readonly number[]): number[] => [...new Set(values.filter((id) => id > 0))];
