/** What every Midjourney proxy relays; the Plus proxy adds the editing actions. */
const MJ_ACTIONS = [
  'mj_imagine',
  'mj_variation',
  'mj_reroll',
  'mj_blend',
  'mj_upscale',
  'mj_describe',
  'mj_upload',
];
const MJ_PLUS_ACTIONS = [
  ...MJ_ACTIONS,
  'mj_zoom',
  'mj_shorten',
  'mj_modal',
  'mj_inpaint',
  'mj_custom_zoom',
  'mj_high_variation',
  'mj_low_variation',
  'mj_pan',
  'swap_face',
];

/**
 * Models each channel type offers out of the box (GET /api/models, the channel form's presets).
 * Midjourney and Suno types get fixed action lists.
 */
export const CHANNEL_TYPE_MODELS: Readonly<Record<number, readonly string[]>> = {
  1: [
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4-turbo',
    'gpt-4',
    'gpt-3.5-turbo',
    'o1-mini',
    'text-embedding-3-small',
    'text-embedding-3-large',
    'dall-e-3',
  ],
  2: MJ_ACTIONS,
  3: ['gpt-4o', 'gpt-4o-mini', 'gpt-4', 'gpt-35-turbo'],
  4: ['llama3', 'qwen2', 'mistral'],
  5: MJ_PLUS_ACTIONS,
  14: ['claude-3-5-sonnet-20241022', 'claude-3-5-haiku-20241022', 'claude-3-opus-20240229'],
  15: ['ERNIE-4.0-8K', 'ERNIE-3.5-8K', 'ERNIE-Speed-8K'],
  16: ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite'],
  17: ['qwen-turbo', 'qwen-plus', 'qwen-max', 'text-embedding-v1'],
  18: ['SparkDesk-v3.5', 'SparkDesk-v4.0'],
  20: ['openai/gpt-4o-mini', 'anthropic/claude-3.5-sonnet'],
  23: ['hunyuan-lite', 'hunyuan-standard', 'hunyuan-pro'],
  24: ['gemini-1.5-pro', 'gemini-1.5-flash'],
  25: ['moonshot-v1-8k', 'moonshot-v1-32k', 'moonshot-v1-128k'],
  26: ['glm-4', 'glm-4v', 'glm-3-turbo'],
  31: ['yi-large', 'yi-medium', 'yi-spark'],
  33: ['claude-3-5-sonnet-20241022', 'claude-3-opus-20240229'],
  34: ['command-r', 'command-r-plus'],
  35: ['abab6.5-chat', 'abab6.5s-chat'],
  36: ['suno_music', 'suno_lyrics'],
  38: ['jina-embeddings-v2-base-en', 'jina-reranker-v2-base-multilingual'],
  39: ['@cf/meta/llama-3.1-8b-instruct'],
  40: ['deepseek-ai/DeepSeek-V2.5', 'Qwen/Qwen2.5-72B-Instruct'],
  41: ['gemini-1.5-pro', 'claude-3-5-sonnet@20240620'],
  42: ['mistral-large-latest', 'mistral-small-latest', 'open-mistral-nemo', 'mistral-embed'],
  43: ['deepseek-chat', 'deepseek-reasoner'],
  48: ['grok-2', 'grok-2-vision', 'grok-beta'],
};
