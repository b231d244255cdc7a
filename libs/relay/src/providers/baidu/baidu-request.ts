/**
 * OpenAI chat bodies as ERNIE v1 chat bodies, and model names as the endpoint names in
 * `/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}`. ERNIE takes only user/assistant turns:
 * system (and developer) text goes in the `system` member.
 */
import type { JsonObject } from '../../openai/request-body';
import { contentText, defined, objects, text } from '../json-parts';

export const BAIDU_CHAT_PATH = '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat';

/**
 * Qianfan's model names whose endpoint name differs from the lower-cased model (the older names
 * included). Any other model is its own endpoint name, lower-cased: `ernie-speed-128k`,
 * `ernie-4.0-turbo-8k`, or a custom deployment's endpoint set through the model mapping.
 */
export const BAIDU_ENDPOINTS: Readonly<Record<string, string>> = {
  'ernie-4.0-8k': 'completions_pro',
  'ernie-bot-4': 'completions_pro',
  'ernie-3.5-8k': 'completions',
  'ernie-bot': 'completions',
  'ernie-bot-turbo': 'eb-instant',
  'ernie-speed-8k': 'ernie_speed',
  'ernie-lite-8k': 'ernie-lite-8k',
  'ernie-tiny-8k': 'ernie-tiny-8k',
};

export function baiduEndpoint(model: string): string {
  const name = model.trim().toLowerCase();
  return BAIDU_ENDPOINTS[name] ?? name;
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** ERNIE refuses a temperature outside (0, 1]: 0 (greedy) becomes its smallest useful value. */
function temperature(value: unknown): number | undefined {
  const t = num(value);
  return t === undefined ? undefined : Math.min(1, Math.max(0.01, t));
}

export function baiduChatBody(openai: JsonObject, stream: boolean): JsonObject {
  const system: string[] = [];
  const messages: JsonObject[] = [];
  for (const message of objects(openai.messages)) {
    const content = contentText(message.content);
    if (message.role === 'system' || message.role === 'developer') system.push(content);
    // Tool results become user turns: ERNIE v1 has no tool role for OpenAI-style tools.
    else messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content });
  }
  const stop = typeof openai.stop === 'string' ? [openai.stop] : openai.stop;
  return defined({
    messages,
    system: system.length > 0 ? system.join('\n') : undefined,
    stream: stream ? true : undefined,
    temperature: temperature(openai.temperature),
    top_p: num(openai.top_p),
    max_output_tokens: num(openai.max_completion_tokens ?? openai.max_tokens),
    stop: Array.isArray(stop) ? stop.filter((s) => typeof s === 'string') : undefined,
    user_id: text(openai.user) || undefined,
  });
}
