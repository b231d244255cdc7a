import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A midjourney-proxy and a Suno API on one real port, for the gateway's task relay (channel types
 * 2/5 use it as a midjourney-proxy base URL, type 36 as a Suno base URL). Task progression is
 * driven by the test (`advance`), never by time. See README.md in this folder.
 */

export type TaskPlatform = 'midjourney' | 'suno';

/** What `advance` moves a task to; `FORGET` hides it from the polls (the upstream lost it). */
export type TaskAdvanceState = 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE' | 'FORGET';

export type MockTaskStatus = 'SUBMITTED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';

export interface MockTaskRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly headers: Readonly<IncomingHttpHeaders>;
  /** `mj-api-secret`, else the `Authorization: Bearer` key; '' when none. */
  readonly key: string;
  /** Parsed JSON, else the raw text; undefined when empty. */
  readonly body: unknown;
  readonly at: number;
}

/** Suno's submit envelope, sent as it is. */
export interface SunoSubmitReply {
  code: string;
  message: string;
  data: unknown;
}

/**
 * A scripted answer to one submission (see `nextSubmit` / `forPrompt`).
 *
 * - `httpStatus`: answer with this status (both wires), no task.
 * - `code` (Midjourney): 1 and 22 (queued) create a task; 21 (exists) answers `result` or the
 *   latest Midjourney task's id; any other code creates no task and has no `result` unless given.
 * - `suno` (Suno): this envelope as it is, no task. A Suno submit with only a Midjourney `code`
 *   other than 1/22 gets `{code: 'error', message: description}`.
 */
export interface TaskSubmitOutcome {
  httpStatus?: number;
  code?: number;
  description?: string;
  properties?: Record<string, unknown>;
  result?: string;
  suno?: SunoSubmitReply;
}

export interface MockTaskSummary {
  readonly id: string;
  readonly platform: TaskPlatform;
  readonly action: string;
  readonly status: MockTaskStatus;
  readonly progress: string;
  readonly prompt: string;
  /** The task an action/change/modal submission refers to (body `taskId`). */
  readonly originTaskId: string | undefined;
  /** The key it was submitted with. */
  readonly key: string;
  /** `advance(id, 'FORGET')` was called: the polls no longer return it. */
  readonly forgotten: boolean;
}

export interface MjButton {
  customId: string;
  emoji: string;
  label: string;
  type: number;
  style: number;
}

/** midjourney-proxy's task DTO (unset values are null, as the real proxy sends them). */
export interface MjTaskDto {
  id: string;
  action: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string | null;
  submitTime: number;
  startTime: number | null;
  finishTime: number | null;
  imageUrl: string | null;
  status: MockTaskStatus;
  progress: string;
  failReason: string | null;
  buttons: MjButton[];
  properties: { finalPrompt: string };
}

export interface SunoClip {
  id: string;
  status: 'streaming' | 'complete';
  title: string;
  audio_url: string;
  image_url: string;
  video_url: string;
  metadata: { tags: string; prompt: string; duration: number | null };
}

/** Suno's task DTO; times are Unix seconds, 0 when unset. */
export interface SunoTaskDto {
  task_id: string;
  action: string;
  status: MockTaskStatus;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  data: SunoClip[];
}

interface TaskRecord {
  id: string;
  platform: TaskPlatform;
  action: string;
  prompt: string;
  originTaskId: string | undefined;
  state: string | null;
  key: string;
  title: string;
  tags: string;
  status: MockTaskStatus;
  progress: string;
  submitTime: number;
  startTime: number | null;
  finishTime: number | null;
  failReason: string | null;
  imageUrl: string | null;
  /** setImageUrl was called: success keeps that address. */
  imageUrlSet: boolean;
  buttons: MjButton[];
  clipId: string | undefined;
  forgotten: boolean;
}

type Json = Record<string, unknown>;

/** Above the gateway's 12 MB image cap. */
export const MOCK_BIG_PNG_BYTES = 12 * 1024 * 1024 + 64 * 1024;

/** A valid 1×1 PNG (70 bytes). */
export const MOCK_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** One silent-ish MPEG-1 Layer III frame header and padding (417 bytes). */
export const MOCK_MP3 = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);

const PNG_SIGNATURE = MOCK_PNG.subarray(0, 8);
const ZERO_CHUNK = Buffer.alloc(64 * 1024);

const MJ_SUBMIT =
  /\/mj\/(?:submit\/(imagine|blend|describe|shorten|modal|action|change|simple-change|upload-discord-images)|insight-face\/swap)$/;
const MJ_FETCH = /\/mj\/task\/([^/]+)\/fetch$/;
const MJ_SEED = /\/mj\/task\/([^/]+)\/image-seed$/;
const SUNO_SUBMIT = /\/suno\/submit\/(MUSIC|LYRICS)$/;
const SUNO_FETCH_ONE = /\/suno\/fetch\/([^/]+)$/;
const IMG = /\/img\/([^/]+)$/;
const AUDIO = /\/audio\/([^/]+)$/;

const MJ_ACTIONS: Readonly<Record<string, string>> = {
  imagine: 'IMAGINE',
  blend: 'BLEND',
  describe: 'DESCRIBE',
  shorten: 'SHORTEN',
  modal: 'MODAL',
  'upload-discord-images': 'UPLOAD',
};

export class MockTaskUpstream {
  readonly requests: MockTaskRequest[] = [];
  private readonly store = new Map<string, TaskRecord>();
  private readonly submitQueue: TaskSubmitOutcome[] = [];
  private readonly promptRules: { substring: string; outcome: TaskSubmitOutcome }[] = [];
  private keys: Set<string> | undefined;
  private pollFailures = 0;
  /** Never reset, so ids stay unique across tests sharing one mock. */
  private readonly idBase = Date.now() * 1000;
  private seq = 0;
  private clipSeq = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts on a free port of 127.0.0.1. */
  static async start(): Promise<MockTaskUpstream> {
    const holder: { mock?: MockTaskUpstream } = {};
    const server = createServer((req, res) => {
      const mock = holder.mock;
      if (!mock) {
        res.destroy();
        return;
      }
      mock.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { code: 500, description: String(error) });
        else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    holder.mock = new MockTaskUpstream(server, `http://127.0.0.1:${port}`);
    return holder.mock;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Queues the answer of the next submission (either wire); several calls queue in order. */
  nextSubmit(outcome: TaskSubmitOutcome): this {
    this.submitQueue.push(outcome);
    return this;
  }

  /** Every submission whose prompt contains `substring` gets this answer (the latest rule wins). */
  forPrompt(substring: string, outcome: TaskSubmitOutcome): this {
    this.promptRules.unshift({ substring, outcome });
    return this;
  }

  /** Only these keys are accepted on the /mj and /suno routes (undefined = any key). */
  acceptKeys(keys: readonly string[] | undefined): this {
    this.keys = keys ? new Set(keys) : undefined;
    return this;
  }

  /** The next `count` polls (list-by-condition, POST /suno/fetch) answer 500. */
  failPolls(count: number): this {
    this.pollFailures = count;
    return this;
  }

  /**
   * Moves a task on: `IN_PROGRESS`, `SUCCESS`, `FAILURE` (with `failReason`, default "banned" for
   * Midjourney and "content policy" for Suno) or `FORGET`. Throws for an unknown id.
   */
  advance(id: string, state: TaskAdvanceState, failReason?: string): this {
    const task = this.store.get(id);
    if (!task) throw new Error(`MockTaskUpstream: no task ${id}`);
    this.apply(task, state, failReason);
    return this;
  }

  /**
   * The address a Midjourney task's DTO gives as its image from now on (a task succeeding later
   * keeps it): e.g. another server, or `<url>/redirect?to=…`. Throws for an unknown id.
   */
  setImageUrl(id: string, imageUrl: string): this {
    const task = this.store.get(id);
    if (!task) throw new Error(`MockTaskUpstream: no task ${id}`);
    task.imageUrl = imageUrl;
    task.imageUrlSet = true;
    return this;
  }

  /**
   * Stores a task under `id` that was never submitted here (one another gateway submitted, e.g. an
   * imported new-api task): polls answer it and `advance` moves it on like a submitted one.
   */
  seed(
    platform: TaskPlatform,
    id: string,
    action = platform === 'suno' ? 'MUSIC' : 'IMAGINE',
  ): this {
    this.add({ id, platform, action, prompt: '', originTaskId: undefined, state: null, key: '' });
    return this;
  }

  /** `advance` for every stored task. */
  advanceAll(state: TaskAdvanceState, failReason?: string): this {
    for (const task of this.store.values()) this.apply(task, state, failReason);
    return this;
  }

  /** The stored tasks, oldest first (forgotten ones included). */
  tasks(): MockTaskSummary[] {
    return [...this.store.values()].map((t) => ({
      id: t.id,
      platform: t.platform,
      action: t.action,
      status: t.status,
      progress: t.progress,
      prompt: t.prompt,
      originTaskId: t.originTaskId,
      key: t.key,
      forgotten: t.forgotten,
    }));
  }

  /** Recorded requests whose path ends with `suffix` (e.g. '/mj/submit/imagine'). */
  requestsTo(suffix: string): MockTaskRequest[] {
    return this.requests.filter((r) => r.path.endsWith(suffix));
  }

  /** Forgets tasks, scripted answers, key restriction, poll failures and recorded requests. */
  reset(): this {
    this.store.clear();
    this.submitQueue.length = 0;
    this.promptRules.length = 0;
    this.keys = undefined;
    this.pollFailures = 0;
    this.requests.length = 0;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const method = req.method ?? 'GET';
    const key = keyOf(req.headers);
    const body = parseBody(raw);
    this.requests.push({ method, path, headers: req.headers, key, body, at: Date.now() });
    const json: Json = isObject(body) ? body : {};

    if (method === 'GET') {
      if (path.endsWith('/redirect')) return redirect(res, req.url ?? '');
      if (path.endsWith('/big.png')) return streamBigPng(res);
      if (path.endsWith('/not-image')) return sendBytes(res, 'text/html', NOT_IMAGE);
      if (IMG.test(path)) return sendBytes(res, 'image/png', MOCK_PNG);
      if (AUDIO.test(path)) return sendBytes(res, 'audio/mpeg', MOCK_MP3);
    }

    const isMj = path.includes('/mj/');
    const isSuno = path.includes('/suno/');
    if ((isMj || isSuno) && this.keys && !this.keys.has(key)) {
      if (isMj) return sendJson(res, 401, { code: 401, description: 'unauthorized' });
      return sendJson(res, 401, { code: 'error', message: 'unauthorized', data: null });
    }

    if (method === 'POST') {
      const mjSubmit = MJ_SUBMIT.exec(path);
      if (mjSubmit) return this.mjSubmit(res, mjSubmit[1], json, key);
      if (path.endsWith('/mj/task/list-by-condition')) return this.mjList(res, json);
      const sunoSubmit = SUNO_SUBMIT.exec(path);
      if (sunoSubmit?.[1]) return this.sunoSubmit(res, sunoSubmit[1], json, key);
      if (path.endsWith('/suno/fetch')) return this.sunoList(res, json);
    }
    if (method === 'GET') {
      const fetchOne = MJ_FETCH.exec(path);
      const fetched = fetchOne?.[1] && this.visible(fetchOne[1], 'midjourney');
      if (fetchOne) {
        if (fetched) return sendJson(res, 200, this.mjDto(fetched));
        return sendJson(res, 404, { code: 4, description: 'task_no_found' });
      }
      const seed = MJ_SEED.exec(path);
      if (seed) {
        if (seed[1] && this.visible(seed[1], 'midjourney'))
          return sendJson(res, 200, { code: 1, description: '成功', result: '1234567' });
        return sendJson(res, 404, { code: 4, description: 'task_no_found' });
      }
      const sunoOne = SUNO_FETCH_ONE.exec(path);
      if (sunoOne) {
        const task = sunoOne[1] ? this.visible(sunoOne[1], 'suno') : undefined;
        if (task)
          return sendJson(res, 200, { code: 'success', message: '', data: this.sunoDto(task) });
        return sendJson(res, 404, { code: 'error', message: 'task not found', data: null });
      }
    }
    if (isSuno) return sendJson(res, 404, { code: 'error', message: 'not found', data: null });
    sendJson(res, 404, { code: 4, description: `no mock route for ${method} ${path}` });
  }

  private outcomeFor(prompt: string): TaskSubmitOutcome | undefined {
    const queued = this.submitQueue.shift();
    if (queued) return queued;
    return this.promptRules.find((r) => prompt.includes(r.substring))?.outcome;
  }

  private mjSubmit(res: ServerResponse, route: string | undefined, body: Json, key: string): void {
    const prompt = str(body.prompt);
    const outcome = this.outcomeFor(prompt);
    if (outcome?.httpStatus !== undefined) return sendStatus(res, outcome.httpStatus, 'midjourney');
    const code = outcome?.code ?? 1;
    const properties = outcome?.properties ?? {};
    const description = outcome?.description ?? (code === 1 ? '提交成功' : '');

    if (code === 21) {
      const latest = [...this.store.values()].filter((t) => t.platform === 'midjourney').pop();
      let result = outcome?.result ?? latest?.id;
      if (result === undefined) {
        const task = this.mjTask(route, body, key);
        this.apply(task, 'SUCCESS');
        result = task.id;
      }
      return sendJson(res, 200, { code, description, result, properties });
    }
    if (code !== 1 && code !== 22) {
      const reply: Json = { code, description, properties };
      if (outcome?.result !== undefined) reply.result = outcome.result;
      return sendJson(res, 200, reply);
    }
    const task = this.mjTask(route, body, key);
    sendJson(res, 200, { code, description, result: task.id, properties });
  }

  private mjTask(route: string | undefined, body: Json, key: string): TaskRecord {
    let action = route === undefined ? 'SWAP_FACE' : (MJ_ACTIONS[route] ?? 'ACTION');
    let originTaskId = str(body.taskId) || undefined;
    if (route === 'action') action = actionOfCustomId(str(body.customId));
    if (route === 'change') action = str(body.action) || 'ACTION';
    if (route === 'simple-change') {
      // "<taskId> U2": the origin and the button letter.
      const [origin = '', button = ''] = str(body.content).trim().split(/\s+/);
      originTaskId = origin || undefined;
      const letter = button.charAt(0).toUpperCase();
      action = letter === 'U' ? 'UPSCALE' : letter === 'V' ? 'VARIATION' : 'REROLL';
    }
    this.seq += 1;
    return this.add({
      id: String(this.idBase + this.seq),
      platform: 'midjourney',
      action,
      prompt: str(body.prompt),
      originTaskId,
      state: typeof body.state === 'string' ? body.state : null,
      key,
    });
  }

  private sunoSubmit(res: ServerResponse, action: string, body: Json, key: string): void {
    const prompt = str(body.prompt) || str(body.gpt_description_prompt);
    const outcome = this.outcomeFor(prompt);
    if (outcome?.httpStatus !== undefined) return sendStatus(res, outcome.httpStatus, 'suno');
    if (outcome?.suno) return sendJson(res, 200, outcome.suno);
    if (outcome?.code !== undefined && outcome.code !== 1 && outcome.code !== 22)
      return sendJson(res, 200, {
        code: 'error',
        message: outcome.description ?? 'mock failure',
        data: null,
      });
    const task = this.add({
      id: randomUUID(),
      platform: 'suno',
      action,
      prompt,
      originTaskId: str(body.task_id) || undefined,
      state: null,
      key,
      title: str(body.title) || 'Mock song',
      tags: str(body.tags),
    });
    sendJson(res, 200, { code: 'success', message: '', data: task.id });
  }

  private add(
    fields: Pick<
      TaskRecord,
      'id' | 'platform' | 'action' | 'prompt' | 'originTaskId' | 'state' | 'key'
    > &
      Partial<Pick<TaskRecord, 'title' | 'tags'>>,
  ): TaskRecord {
    const task: TaskRecord = {
      title: '',
      tags: '',
      ...fields,
      status: 'SUBMITTED',
      progress: '0%',
      submitTime: Date.now(),
      startTime: null,
      finishTime: null,
      failReason: null,
      imageUrl: null,
      imageUrlSet: false,
      buttons: [],
      clipId: undefined,
      forgotten: false,
    };
    this.store.set(task.id, task);
    return task;
  }

  private apply(task: TaskRecord, state: TaskAdvanceState, failReason?: string): void {
    const suno = task.platform === 'suno';
    const now = Date.now();
    switch (state) {
      case 'FORGET':
        task.forgotten = true;
        return;
      case 'IN_PROGRESS':
        task.status = 'IN_PROGRESS';
        task.progress = suno ? '50%' : '45%';
        task.startTime ??= now;
        if (suno) task.clipId ??= this.nextClipId();
        return;
      case 'SUCCESS':
        task.status = 'SUCCESS';
        task.progress = '100%';
        task.startTime ??= now;
        task.finishTime = now;
        task.failReason = null;
        if (suno) {
          task.clipId ??= this.nextClipId();
        } else {
          if (!task.imageUrlSet) task.imageUrl = `${this.url}/img/${task.id}.png`;
          task.buttons = [
            {
              customId: `MJ::JOB::upsample::1::${randomUUID()}`,
              emoji: '',
              label: 'U1',
              type: 2,
              style: 2,
            },
          ];
        }
        return;
      case 'FAILURE':
        task.status = 'FAILURE';
        task.progress = '100%';
        task.startTime ??= now;
        task.finishTime = now;
        task.failReason = failReason ?? (suno ? 'content policy' : 'banned');
        return;
    }
  }

  private nextClipId(): string {
    this.clipSeq += 1;
    return `clip-${this.clipSeq}`;
  }

  private visible(id: string, platform: TaskPlatform): TaskRecord | undefined {
    const task = this.store.get(id);
    return task && task.platform === platform && !task.forgotten ? task : undefined;
  }

  private pollFails(res: ServerResponse, platform: TaskPlatform): boolean {
    if (this.pollFailures <= 0) return false;
    this.pollFailures -= 1;
    sendStatus(res, 500, platform);
    return true;
  }

  private mjList(res: ServerResponse, body: Json): void {
    if (this.pollFails(res, 'midjourney')) return;
    sendJson(
      res,
      200,
      idsOf(body)
        .map((id) => this.visible(id, 'midjourney'))
        .filter((t): t is TaskRecord => t !== undefined)
        .map((t) => this.mjDto(t)),
    );
  }

  private sunoList(res: ServerResponse, body: Json): void {
    if (this.pollFails(res, 'suno')) return;
    const data = idsOf(body)
      .map((id) => this.visible(id, 'suno'))
      .filter((t): t is TaskRecord => t !== undefined)
      .map((t) => this.sunoDto(t));
    sendJson(res, 200, { code: 'success', message: '', data });
  }

  private mjDto(t: TaskRecord): MjTaskDto {
    return {
      id: t.id,
      action: t.action,
      prompt: t.prompt,
      promptEn: t.prompt,
      description:
        t.action === 'IMAGINE'
          ? `/imagine ${t.prompt}`
          : `/${t.action.toLowerCase()} ${t.originTaskId ?? ''}`.trim(),
      state: t.state,
      submitTime: t.submitTime,
      startTime: t.startTime,
      finishTime: t.finishTime,
      imageUrl: t.imageUrl,
      status: t.status,
      progress: t.progress,
      failReason: t.failReason,
      buttons: t.buttons,
      properties: { finalPrompt: t.prompt },
    };
  }

  private sunoDto(t: TaskRecord): SunoTaskDto {
    const complete = t.status === 'SUCCESS';
    const data: SunoClip[] =
      t.clipId === undefined || t.status === 'FAILURE'
        ? []
        : [
            {
              id: t.clipId,
              status: complete ? 'complete' : 'streaming',
              title: t.title,
              audio_url: complete ? `${this.url}/audio/${t.clipId}.mp3` : '',
              image_url: `${this.url}/img/${t.clipId}.png`,
              video_url: '',
              metadata: { tags: t.tags, prompt: t.prompt, duration: complete ? 30.5 : null },
            },
          ];
    return {
      task_id: t.id,
      action: t.action,
      status: t.status,
      fail_reason: t.failReason ?? '',
      submit_time: seconds(t.submitTime),
      start_time: t.startTime === null ? 0 : seconds(t.startTime),
      finish_time: t.finishTime === null ? 0 : seconds(t.finishTime),
      progress: t.progress,
      data,
    };
  }
}

const NOT_IMAGE = Buffer.from('<!doctype html><html><body>not an image</body></html>');

const seconds = (ms: number) => Math.floor(ms / 1000);

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function idsOf(body: Json): string[] {
  const ids = body.ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

function actionOfCustomId(customId: string): string {
  if (customId.includes('upsample')) return 'UPSCALE';
  if (customId.includes('variation')) return 'VARIATION';
  if (customId.includes('reroll')) return 'REROLL';
  return 'ACTION';
}

function keyOf(headers: IncomingHttpHeaders): string {
  const secret = headers['mj-api-secret'];
  if (typeof secret === 'string' && secret) return secret;
  const auth = headers.authorization ?? '';
  return auth.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendJson(res: ServerResponse, status: number, payload: unknown, extra = {}): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
}

function sendStatus(res: ServerResponse, status: number, platform: TaskPlatform): void {
  const extra = status === 429 ? { 'retry-after': '1' } : {};
  const message = `mock status ${status}`;
  if (platform === 'suno') sendJson(res, status, { code: 'error', message, data: null }, extra);
  else sendJson(res, status, { code: status, description: message }, extra);
}

function sendBytes(res: ServerResponse, contentType: string, bytes: Buffer): void {
  res.writeHead(200, { 'content-type': contentType, 'content-length': bytes.length });
  res.end(bytes);
}

/** 302 to the query's `to` (the image proxy must not follow it). */
function redirect(res: ServerResponse, url: string): void {
  const to = new URL(url, 'http://mock').searchParams.get('to') ?? '/';
  res.writeHead(302, { location: to, 'content-length': 0 });
  res.end();
}

/** A PNG signature then zeros, written chunk by chunk with backpressure (one 64 KiB buffer). */
async function streamBigPng(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': MOCK_BIG_PNG_BYTES });
  res.write(PNG_SIGNATURE);
  let left = MOCK_BIG_PNG_BYTES - PNG_SIGNATURE.length;
  while (left > 0) {
    if (res.destroyed) return;
    const piece = left >= ZERO_CHUNK.length ? ZERO_CHUNK : ZERO_CHUNK.subarray(0, left);
    left -= piece.length;
    if (!res.write(piece)) await drained(res);
  }
  res.end();
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
