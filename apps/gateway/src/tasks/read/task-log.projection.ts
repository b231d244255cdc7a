import type { Projection, ReadStoreSession, Update } from '@tollgate/read-store';
import {
  TASK_EVENT_TYPES,
  type TaskEvent,
  type TaskFacts,
  type TaskImported,
  type TaskPlatform,
  type TaskSnapshot,
} from '@tollgate/domain';
import { eventTimeMs } from '@tollgate/event-store';
import {
  MIDJOURNEYS,
  SUNO_TASKS,
  type MidjourneyDocument,
  type SunoTaskDocument,
} from './task-log.documents';

/** midjourney-proxy's buttons and properties are kept as JSON text, like new-api's columns. */
const jsonText = (value: unknown): string => (value === undefined ? '' : JSON.stringify(value));

const INDEXES = [
  { fields: { id: -1 } },
  { fields: { user_id: 1, id: -1 } },
  { fields: { channel_id: 1, id: -1 } },
  { fields: { submit_time: 1 } },
] as const;

function midjourneyDocument(d: TaskFacts, id: number, position: number): MidjourneyDocument {
  return {
    _id: d.taskId,
    task_key: d.taskId,
    source_position: position,
    id,
    code: d.code,
    user_id: d.userId,
    action: d.action,
    mj_id: d.upstreamTaskId,
    prompt: d.prompt,
    prompt_en: '',
    description: d.description,
    state: '',
    submit_time: d.submitTime,
    start_time: 0,
    finish_time: 0,
    image_url: d.imageUrl,
    status: d.status,
    progress: d.progress,
    fail_reason: d.failReason,
    channel_id: d.channelId,
    quota: d.quota,
    refund_quota: 0,
    buttons: '',
    properties: jsonText(d.properties),
  };
}

function sunoDocument(d: TaskFacts, id: number, position: number, at: number): SunoTaskDocument {
  return {
    _id: d.taskId,
    task_key: d.taskId,
    source_position: position,
    id,
    created_at: at,
    updated_at: at,
    task_id: d.upstreamTaskId,
    platform: 'suno',
    user_id: d.userId,
    channel_id: d.channelId,
    quota: d.quota,
    refund_quota: 0,
    action: d.action,
    status: d.status,
    fail_reason: d.failReason,
    // The submission's time is in ms; the task log counts seconds (Suno's own unit).
    submit_time: Math.floor(d.submitTime / 1000),
    start_time: 0,
    finish_time: 0,
    progress: d.progress,
    data: null,
  };
}

/** An imported `midjourneys` row, as the source had it (times in milliseconds already). */
function importedMidjourneyDocument(d: TaskImported['data'], id: number): MidjourneyDocument {
  return {
    ...midjourneyDocument(d, id, id),
    prompt_en: d.promptEn,
    state: d.state,
    start_time: d.startTime,
    finish_time: d.finishTime,
    buttons: jsonText(d.buttons),
  };
}

/** An imported `tasks` row (Suno): the event's milliseconds back to the log's seconds. */
function importedSunoDocument(d: TaskImported['data'], id: number, at: number): SunoTaskDocument {
  const seconds = (ms: number) => Math.floor(ms / 1000);
  return {
    ...sunoDocument(d, id, id, at),
    created_at: d.createdAt || at,
    updated_at: d.updatedAt || d.createdAt || at,
    start_time: seconds(d.startTime),
    finish_time: seconds(d.finishTime),
    data: d.data ?? null,
  };
}

/** What a snapshot changes on a drawing-log row (absent fields keep their value). */
function midjourneyChanges(s: TaskSnapshot): Record<string, unknown> {
  const set: Record<string, unknown> = {
    status: s.status,
    progress: s.progress,
    fail_reason: s.failReason,
    start_time: s.startTime,
    finish_time: s.finishTime,
  };
  if (s.imageUrl !== undefined) set['image_url'] = s.imageUrl;
  if (s.promptEn !== undefined) set['prompt_en'] = s.promptEn;
  if (s.description !== undefined) set['description'] = s.description;
  if (s.state !== undefined) set['state'] = s.state;
  if (s.buttons !== undefined) set['buttons'] = jsonText(s.buttons);
  if (s.properties !== undefined) set['properties'] = jsonText(s.properties);
  return set;
}

/** What a snapshot changes on a task-log row (Suno's times are seconds already). */
function sunoChanges(s: TaskSnapshot, at: number): Record<string, unknown> {
  const set: Record<string, unknown> = {
    status: s.status,
    progress: s.progress,
    fail_reason: s.failReason,
    start_time: s.startTime,
    finish_time: s.finishTime,
    updated_at: at,
  };
  if (s.data !== undefined) set['data'] = s.data;
  return set;
}

/**
 * Applies `change` to the task's document in its platform's collection, at most once per event: the
 * guard on `source_position` makes a replayed event (MongoDB without transactions) a no-op.
 */
async function updateTask(
  session: ReadStoreSession,
  event: { readonly taskId: string; readonly platform: TaskPlatform },
  position: number,
  change: { midjourney: Update; suno: Update },
): Promise<void> {
  const filter = { _id: event.taskId, source_position: { $lt: position } };
  const update = event.platform === 'midjourney' ? change.midjourney : change.suno;
  const guarded: Update = { ...update, $set: { ...update.$set, source_position: position } };
  if (event.platform === 'midjourney')
    await session.collection<MidjourneyDocument>(MIDJOURNEYS).updateMany(filter, guarded);
  else await session.collection<SunoTaskDocument>(SUNO_TASKS).updateMany(filter, guarded);
}

/**
 * The drawing log (`midjourneys`) and the task log (`suno_tasks`): one document per task, keyed by
 * its stream key, `id` = the submission's `$all` position (stable across rebuilds, newest = highest).
 * The submission creates it; each later event of the task copies the upstream's snapshot; the
 * refund records what was given back.
 */
export const taskLogProjection: Projection = {
  name: 'task-log',
  // 3: TaskImported (new-api's midjourneys / tasks rows taken over by the import).
  version: 3,
  collections: [
    { name: MIDJOURNEYS, indexes: [...INDEXES, { fields: { mj_id: 1 } }] },
    { name: SUNO_TASKS, indexes: [...INDEXES, { fields: { task_id: 1 } }] },
  ],
  eventTypes: TASK_EVENT_TYPES,
  async apply(recorded, session) {
    const event = { type: recorded.type, data: recorded.data } as TaskEvent;
    const position = Number(recorded.position.commit);
    const at = Math.floor(eventTimeMs(recorded) / 1000);
    switch (event.type) {
      case 'TaskSubmitted': {
        const d = event.data;
        // Insert once: a replayed submission must not undo the task's later events.
        if (d.platform === 'midjourney') {
          const { _id, ...doc } = midjourneyDocument(d, position, position);
          await session
            .collection<MidjourneyDocument>(MIDJOURNEYS)
            .update(_id, { $setOnInsert: doc }, { upsert: true });
        } else {
          const { _id, ...doc } = sunoDocument(d, position, position, at);
          await session
            .collection<SunoTaskDocument>(SUNO_TASKS)
            .update(_id, { $setOnInsert: doc }, { upsert: true });
        }
        return;
      }
      case 'TaskImported': {
        // Inserted once, like a submission: a replay must not undo the task's later events.
        const d = event.data;
        if (d.platform === 'midjourney') {
          const { _id, ...doc } = importedMidjourneyDocument(d, position);
          await session
            .collection<MidjourneyDocument>(MIDJOURNEYS)
            .update(_id, { $setOnInsert: doc }, { upsert: true });
        } else {
          const { _id, ...doc } = importedSunoDocument(d, position, at);
          await session
            .collection<SunoTaskDocument>(SUNO_TASKS)
            .update(_id, { $setOnInsert: doc }, { upsert: true });
        }
        return;
      }
      case 'TaskProgressed':
      case 'TaskSucceeded':
      case 'TaskFailed': {
        const snapshot = event.data.snapshot;
        await updateTask(session, event.data, position, {
          midjourney: { $set: midjourneyChanges(snapshot) },
          suno: { $set: sunoChanges(snapshot, at) },
        });
        return;
      }
      case 'TaskRefunded': {
        const refund = { refund_quota: event.data.quota };
        await updateTask(session, event.data, position, {
          midjourney: { $set: refund },
          suno: { $set: { ...refund, updated_at: at } },
        });
        return;
      }
    }
  },
};
