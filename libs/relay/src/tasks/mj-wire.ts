/**
 * Midjourney (midjourney-proxy) on the wire, as new-api relays it: which action a submit route is,
 * the model name it is billed as, what the upstream may see of the client's body, and the codes.
 * Pure: no I/O.
 */

/** midjourney-proxy submit codes. */
export const MJ_CODE = {
  submitted: 1,
  exists: 21,
  queued: 22,
  queueFull: 23,
  banned: 24,
  /** new-api's local codes: a request it refused, a transport error. */
  requestError: 4,
  unknownError: 5,
  /** "no available account": the channel is unusable. */
  noAccount: 3,
} as const;

/** Submit codes that mean the upstream took the task (charged). */
export const MJ_ACCEPTED_CODES: ReadonlySet<number> = new Set([1, 21, 22]);

/**
 * The submit route's last path part → the action it submits (simple-change is a change). Face swap
 * is not a submit route (`/mj/insight-face/swap`).
 */
export const MJ_SUBMIT_ACTIONS: Readonly<Record<string, string>> = {
  imagine: 'IMAGINE',
  blend: 'BLEND',
  describe: 'DESCRIBE',
  shorten: 'SHORTEN',
  modal: 'MODAL',
  action: 'ACTION',
  change: 'CHANGE',
  'simple-change': 'CHANGE',
  'upload-discord-images': 'UPLOAD',
};

/** Actions that act on an earlier task and must go to its channel. */
const FOLLOW_UPS: ReadonlySet<string> = new Set(['CHANGE', 'ACTION', 'MODAL']);
/** Editing actions midjourney-proxy finishes in a modal: new-api does not charge them. */
const FREE_ACTIONS: ReadonlySet<string> = new Set(['INPAINT', 'CUSTOM_ZOOM']);

export const isFollowUp = (routeAction: string): boolean => FOLLOW_UPS.has(routeAction);
export const isFreeAction = (action: string): boolean => FREE_ACTIONS.has(action);

/** The billed model name of an action (`mj_imagine`, …, `swap_face`). */
export function mjModelName(action: string): string {
  if (action === 'SWAP_FACE') return 'swap_face';
  return `mj_${action.toLowerCase()}`;
}

/** Order matters: the longer names first (low_variation before variation). */
const CUSTOM_ID_ACTIONS: ReadonlyArray<readonly [string, string]> = [
  ['MJ::JOB::upsample', 'UPSCALE'],
  ['MJ::JOB::low_variation', 'LOW_VARIATION'],
  ['MJ::JOB::high_variation', 'HIGH_VARIATION'],
  ['MJ::JOB::variation', 'VARIATION'],
  ['MJ::JOB::reroll', 'REROLL'],
  ['MJ::JOB::pan', 'PAN'],
  ['MJ::Outpaint', 'ZOOM'],
  ['MJ::CustomZoom', 'CUSTOM_ZOOM'],
  ['MJ::Inpaint', 'INPAINT'],
];

/** The action of a button's customId (`MJ::JOB::upsample::2::<uuid>` → UPSCALE); '' unknown. */
export function actionOfCustomId(customId: string): string {
  for (const [marker, action] of CUSTOM_ID_ACTIONS) if (customId.includes(marker)) return action;
  return '';
}

/** `simple-change`'s `content`: "<taskId> U2" → {taskId, action UPSCALE, index 2}. */
export function parseSimpleChange(
  content: string,
): { taskId: string; action: string; index: number } | undefined {
  const match = /^\s*(\S+)\s+([UVR])(\d?)\s*$/i.exec(content);
  if (!match) return undefined;
  const [, taskId = '', letter = '', digit = ''] = match;
  const action = { U: 'UPSCALE', V: 'VARIATION', R: 'REROLL' }[letter.toUpperCase()] ?? '';
  const index = digit === '' ? 0 : Number(digit);
  if (action !== 'REROLL' && (index < 1 || index > 4)) return undefined;
  return { taskId, action, index };
}

interface MjSubmission {
  /** The action recorded and billed. */
  readonly action: string;
  /** The earlier task a follow-up acts on ('' for a new task). */
  readonly originTaskId: string;
  readonly prompt: string;
}

/**
 * What a submit route's body asks for, or the reason it is refused (new-api's local error texts,
 * answered with code 4).
 */
export function readMjSubmission(
  routeAction: string,
  body: Readonly<Record<string, unknown>>,
): MjSubmission | { error: string } {
  const text = (key: string): string => {
    const value = body[key];
    return typeof value === 'string' ? value : '';
  };
  const prompt = text('prompt');
  switch (routeAction) {
    case 'IMAGINE':
      if (prompt === '') return { error: 'prompt_is_required' };
      return { action: 'IMAGINE', originTaskId: '', prompt };
    case 'BLEND':
    case 'DESCRIBE':
    case 'UPLOAD':
    case 'SWAP_FACE':
      return { action: routeAction, originTaskId: '', prompt };
    case 'SHORTEN':
      if (prompt === '') return { error: 'prompt_is_required' };
      return { action: 'SHORTEN', originTaskId: '', prompt };
    case 'MODAL': {
      const taskId = text('taskId');
      if (taskId === '') return { error: 'task_id_is_required' };
      return { action: 'MODAL', originTaskId: taskId, prompt };
    }
    case 'ACTION': {
      const taskId = text('taskId');
      if (taskId === '') return { error: 'task_id_is_required' };
      const action = actionOfCustomId(text('customId'));
      if (action === '') return { error: 'custom_id_is_invalid' };
      return { action, originTaskId: taskId, prompt };
    }
    case 'CHANGE': {
      let taskId = text('taskId');
      let action = text('action').toUpperCase();
      const content = text('content');
      if (taskId === '' && content !== '') {
        const parsed = parseSimpleChange(content);
        if (!parsed) return { error: 'content_is_invalid' };
        taskId = parsed.taskId;
        action = parsed.action;
      }
      if (taskId === '') return { error: 'task_id_is_required' };
      if (!['UPSCALE', 'VARIATION', 'REROLL'].includes(action))
        return { error: 'action_is_invalid' };
      return { action, originTaskId: taskId, prompt };
    }
    default:
      return { error: 'unknown_action' };
  }
}

interface MjBodyOptions {
  readonly accountFilter: boolean;
  readonly notify: boolean;
  readonly modeClear: boolean;
}

const MODE_FLAGS = /\s*--(?:fast|relax|turbo)\b/g;

/** The body the upstream sees: accountFilter / notifyHook dropped unless allowed, modes cleared. */
export function upstreamMjBody(
  body: Readonly<Record<string, unknown>>,
  options: MjBodyOptions,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  if (!options.accountFilter) delete out['accountFilter'];
  if (!options.notify) delete out['notifyHook'];
  if (options.modeClear && typeof out['prompt'] === 'string')
    out['prompt'] = out['prompt'].replace(MODE_FLAGS, '').trim();
  return out;
}

/**
 * The upstream path of a client path: a mode prefix (`/mj-fast/mj/…`) is cut, anything else is
 * forwarded as it came (new-api's getMjRequestPath).
 */
export function upstreamMjPath(clientPath: string): string {
  const path = clientPath.split('?', 1)[0] ?? clientPath;
  if (path.includes('/mj-')) {
    const at = path.indexOf('/mj/');
    if (at > 0) return path.slice(at);
  }
  return path;
}

/** What the client sees of a submit answer: 21 and 22 read as 1 (21 stays for free actions). */
export function clientMjAnswer(body: string, action: string): string {
  let out = body.replace(/"code"\s*:\s*22\b/g, '"code":1');
  if (!isFreeAction(action)) out = out.replace(/"code"\s*:\s*21\b/g, '"code":1');
  return out;
}

/** new-api's relay error body for Midjourney routes. */
export function mjErrorBody(code: number, description: string): string {
  return JSON.stringify({ description, type: 'upstream_error', code });
}
