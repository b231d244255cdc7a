/** Suno on the wire, as new-api relays it (relay_task.go, task/suno/adaptor.go). Pure. */

export const sunoModelName = (action: string): string => `suno_${action.toLowerCase()}`;

interface SunoSubmission {
  readonly action: 'MUSIC' | 'LYRICS';
  /** The body the upstream sees (mv defaulted for music). */
  readonly body: Record<string, unknown>;
  readonly prompt: string;
  /** The task a continuation extends ('' for a new song). */
  readonly originTaskId: string;
}

/** The submission of `POST /suno/submit/:action`, or new-api's error code for it. */
export function readSunoSubmission(
  routeAction: string,
  body: Readonly<Record<string, unknown>>,
): SunoSubmission | { error: string } {
  const action = routeAction.toUpperCase();
  if (action !== 'MUSIC' && action !== 'LYRICS') return { error: 'invalid_action' };
  const text = (key: string): string => {
    const value = body[key];
    return typeof value === 'string' ? value : '';
  };
  const prompt = text('prompt') || text('gpt_description_prompt');
  if (action === 'LYRICS' && text('prompt') === '') return { error: 'prompt_is_required' };
  const out: Record<string, unknown> = { ...body };
  if (action === 'MUSIC' && text('mv') === '') out['mv'] = 'chirp-v3-0';
  const continueClip = text('continue_clip_id');
  const originTaskId = text('task_id');
  if (continueClip !== '' && originTaskId === '') return { error: 'task_id_is_required' };
  return { action, body: out, prompt, originTaskId: continueClip !== '' ? originTaskId : '' };
}

/** The task id of Suno's submit answer `{"code":"success","data":"<id>"}`, or undefined. */
export function sunoSubmittedId(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const { code, data } = answer as { code?: unknown; data?: unknown };
  return code === 'success' && typeof data === 'string' && data !== '' ? data : undefined;
}

/**
 * new-api's TaskError body; transport details are never shown to the client, `hiddenAs` (new-api's
 * text unless the caller has it in the client's language) stands in for them.
 */
export function sunoErrorBody(
  code: string,
  message: string,
  hiddenAs = '请求上游地址失败',
): string {
  const hidden = /post|dial|http/i.test(message) ? hiddenAs : message;
  return JSON.stringify({ code, message: hidden, data: null });
}
