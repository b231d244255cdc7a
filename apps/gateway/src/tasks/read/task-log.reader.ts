import { Inject, Injectable } from '@nestjs/common';
import type { MidjourneyRow, TaskRow } from '@tollgate/contracts';
import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import {
  MIDJOURNEYS,
  SUNO_TASKS,
  toMidjourneyRow,
  toTaskRow,
  type MidjourneyDocument,
  type SunoTaskDocument,
} from './task-log.documents';

/**
 * The task log as the relay reads it (fetch, list-by-condition, image proxy): rows with channel_id
 * and the upstream's own image_url (the relay decides what the client is shown: shownImageUrl).
 */
@Injectable()
export class TaskLogReader {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  /** The user's own Midjourney tasks with these upstream ids (mj_id), newest first. */
  async midjourneyByUpstreamIds(userId: number, ids: readonly string[]): Promise<MidjourneyRow[]> {
    const wanted = ids.filter((id) => id !== '');
    if (wanted.length === 0) return [];
    const docs = await this.readStore
      .collection<MidjourneyDocument>(MIDJOURNEYS)
      .find({ user_id: userId, mj_id: { $in: wanted } }, { sort: { id: -1 } });
    return docs.map((doc) => toMidjourneyRow(doc, true));
  }

  /** The user's own Suno tasks with these upstream ids (task_id), newest first. */
  async sunoByUpstreamIds(userId: number, ids: readonly string[]): Promise<TaskRow[]> {
    const wanted = ids.filter((id) => id !== '');
    if (wanted.length === 0) return [];
    const docs = await this.readStore
      .collection<SunoTaskDocument>(SUNO_TASKS)
      .find({ user_id: userId, task_id: { $in: wanted } }, { sort: { id: -1 } });
    return docs.map((doc) => toTaskRow(doc, true));
  }

  /**
   * The image address the upstream gave the newest task with this mj_id, whoever owns it (new-api's
   * `/mj/image/:id` is public), and the channel that runs it: imageUrl '' while the task has no
   * image, undefined when there is no such task.
   */
  async midjourneyImage(
    mjId: string,
  ): Promise<{ readonly imageUrl: string; readonly channelId: number } | undefined> {
    if (mjId === '') return undefined;
    const [doc] = await this.readStore
      .collection<MidjourneyDocument>(MIDJOURNEYS)
      .find({ mj_id: mjId }, { sort: { id: -1 }, limit: 1 });
    return doc ? { imageUrl: doc.image_url, channelId: doc.channel_id } : undefined;
  }
}
