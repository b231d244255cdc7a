import type { TaskSubmitted } from '@tollgate/domain';
import { recordedEvent } from '@tollgate/testing';
import { TaskDirectory } from './task-directory';
import { TASK_HINT_INTERVAL_MS, TaskPollHints } from './task-poll-hints';

const submitted = (taskId: string, over: Partial<TaskSubmitted['data']> = {}) =>
  recordedEvent('TaskSubmitted', {
    taskId,
    platform: 'midjourney',
    upstreamTaskId: `u-${taskId}`,
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

describe('TaskPollHints: a callback is a hint to poll, at most once per task and interval', () => {
  const T0 = 1_000_000;
  let directory: TaskDirectory;
  let polls: string[][];
  let hints: TaskPollHints;

  beforeEach(() => {
    directory = new TaskDirectory();
    directory.apply([
      submitted('open-a'),
      submitted('open-b'),
      // Finished at submission (a refused prompt): never polled.
      submitted('closed', { status: 'FAILURE', failReason: 'banned', progress: '100%' }),
    ]);
    polls = [];
    hints = new TaskPollHints(directory, {
      pollTasks: (taskIds) => {
        polls.push([...taskIds]);
        return Promise.resolve();
      },
    });
  });

  it('polls an open task at once, then drops hints about it until the interval has passed', async () => {
    await hints.hint(['open-a'], T0);
    expect(polls).toEqual([['open-a']]);
    for (let i = 0; i < 50; i++) await hints.hint(['open-a'], T0 + i * 100);
    await hints.hint(['open-a'], T0 + TASK_HINT_INTERVAL_MS - 1);
    expect(polls).toEqual([['open-a']]);
    await hints.hint(['open-a'], T0 + TASK_HINT_INTERVAL_MS);
    expect(polls).toEqual([['open-a'], ['open-a']]);
  });

  it('counts the interval per task', async () => {
    await hints.hint(['open-a'], T0);
    await hints.hint(['open-a', 'open-b'], T0 + 1);
    expect(polls).toEqual([['open-a'], ['open-b']]);
  });

  it('never polls a finished or unknown task, nor spends its interval', async () => {
    await hints.hint(['closed', 'nope'], T0);
    expect(polls).toEqual([]);
    directory.apply([
      recordedEvent('TaskSucceeded', {
        taskId: 'open-a',
        userId: 7,
        platform: 'midjourney',
        snapshot: {
          status: 'SUCCESS',
          progress: '100%',
          failReason: '',
          startTime: 0,
          finishTime: 0,
        },
      }),
    ]);
    await hints.hint(['open-a'], T0);
    expect(polls).toEqual([]);
  });

  it('answers even when the poll fails', async () => {
    const failing = new TaskPollHints(directory, {
      pollTasks: () => Promise.reject(new Error('upstream down')),
    });
    await expect(failing.hint(['open-a'], T0)).resolves.toBeUndefined();
  });
});
