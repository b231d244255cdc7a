import { sameSnapshot, type TaskSubmitted } from '@tollgate/domain';
import { recordedEvent } from '@tollgate/testing';
import { TaskDirectory } from './task-directory';

const submitted = (over: Partial<TaskSubmitted['data']> = {}) =>
  recordedEvent('TaskSubmitted', {
    taskId: 'r1',
    platform: 'midjourney',
    upstreamTaskId: 'u1',
    userId: 7,
    tokenId: 3,
    channelId: 2,
    action: 'IMAGINE',
    model: 'mj_imagine',
    code: 1,
    prompt: 'p',
    description: '',
    submitTime: 1000,
    status: '',
    progress: '0%',
    failReason: '',
    quota: 50,
    originTaskId: '',
    imageUrl: '',
    ...over,
  });
const snapshot = (status: string) => ({
  taskId: 'r1',
  userId: 7,
  platform: 'midjourney',
  snapshot: { status, progress: '45%', failReason: '', startTime: 0, finishTime: 0 },
});

describe('TaskDirectory', () => {
  it('keeps open tasks by channel until they finish, and every task by owner', () => {
    const directory = new TaskDirectory();
    directory.apply([
      submitted(),
      submitted({ taskId: 'r2', upstreamTaskId: 'u2', channelId: 5, platform: 'suno' }),
      // Refused: recorded, never open.
      submitted({ taskId: 'r3', upstreamTaskId: '', failReason: 'banned', status: 'FAILURE' }),
    ]);
    expect([...directory.openByChannel().keys()].sort()).toEqual([2, 5]);
    directory.apply([recordedEvent('TaskProgressed', snapshot('IN_PROGRESS'))]);
    expect(directory.ofOwner('midjourney', 'u1', 7)).toMatchObject({ status: 'IN_PROGRESS' });
    expect(directory.isOpen('r1')).toBe(true);
    directory.apply([recordedEvent('TaskSucceeded', snapshot('SUCCESS'))]);
    expect(directory.isOpen('r1')).toBe(false);
    expect([...directory.openByChannel().values()].flat()).toHaveLength(1);
    expect(directory.ofOwner('midjourney', 'u1', 7)).toMatchObject({
      status: 'SUCCESS',
      channelId: 2,
    });
    // Another user never gets the entry; the platform is part of the id.
    expect(directory.ofOwner('midjourney', 'u1', 8)).toBeUndefined();
    expect(directory.ofOwner('suno', 'u1', 7)).toBeUndefined();
  });

  it("carries each open task's folded snapshot: the poller skips an unchanged answer", () => {
    const directory = new TaskDirectory();
    directory.apply([submitted(), recordedEvent('TaskProgressed', snapshot('IN_PROGRESS'))]);
    const [task] = directory.openByChannel().get(2) ?? [];
    expect(task?.snapshot).toMatchObject({ status: 'IN_PROGRESS', progress: '45%' });
    // The same answer again (only its times moved) is nothing the decider would record.
    const again = { ...snapshot('IN_PROGRESS').snapshot, startTime: 5 };
    expect(sameSnapshot(task!.snapshot, again)).toBe(true);
    expect(sameSnapshot(task!.snapshot, { ...again, progress: '60%' })).toBe(false);
  });

  it('answers the newest of a shared upstream id and ignores a replayed submission', () => {
    const directory = new TaskDirectory();
    directory.apply([submitted(), submitted({ taskId: 'r9', channelId: 4 }), submitted()]);
    expect(directory.withUpstreamId('midjourney', 'u1').map((e) => e.taskId)).toEqual(['r1', 'r9']);
    expect(directory.ofOwner('midjourney', 'u1', 7)?.taskId).toBe('r9');
  });

  it('folds imported tasks: open ones are polled, timed from the import; finished ones are not', () => {
    const directory = new TaskDirectory();
    const importedAt = '2026-01-15T08:00:00.000Z';
    const imported = (taskId: string, upstreamTaskId: string, status: string, progress: string) =>
      recordedEvent('TaskImported', {
        taskId,
        platform: 'midjourney',
        upstreamTaskId,
        userId: 4,
        tokenId: 0,
        channelId: 9,
        action: 'IMAGINE',
        model: 'mj_imagine',
        code: 1,
        quota: 50,
        status,
        progress,
        failReason: '',
        submitTime: 1_700_000_000_000,
        startTime: 0,
        finishTime: 0,
        prompt: 'p',
        promptEn: '',
        description: '',
        state: '',
        imageUrl: '',
        source: { project: 'new-api', table: 'midjourneys', rowId: 1, importedAt },
      });
    directory.apply([
      imported('newapi-mj-1', 'm1', 'IN_PROGRESS', '45%'),
      imported('newapi-mj-2', 'm2', 'SUCCESS', '100%'),
      imported('newapi-mj-3', 'm3', 'FAILURE', '100%'),
    ]);
    const open = directory.openByChannel().get(9) ?? [];
    expect(open.map((t) => [t.taskId, t.submitTime])).toEqual([
      ['newapi-mj-1', Date.parse(importedAt)],
    ]);
    expect(directory.ofOwner('midjourney', 'm2', 4)).toMatchObject({
      taskId: 'newapi-mj-2',
      status: 'SUCCESS',
      submitTime: 1_700_000_000_000,
    });
    expect(directory.ofOwner('midjourney', 'm1', 5)).toBeUndefined();
  });
});
