/**
 * Models that do not answer chat completions, by name: embeddings, images, speech and audio,
 * moderation, rerank, video and the task models (Midjourney, Suno, Kling…).
 */
const NOT_CHAT = [
  /embed/i,
  /^(bge|m3e|gte)-/i,
  /rerank/i,
  /moderation/i,
  /^(dall-e|gpt-image|imagen|flux|stable-diffusion|sd3|sdxl|cogview|wanx|seedream)/i,
  /image/i,
  /whisper|tts|speech|transcribe|audio|realtime/i,
  /^(mj_|swap_face|suno|kling|vidu|veo|sora|runway|luma|jimeng)/i,
  /video/i,
];

/** Whether the playground may offer a model: one that answers POST /v1/chat/completions. */
export function isChatModel(name: string): boolean {
  return !NOT_CHAT.some((pattern) => pattern.test(name));
}
