import { postEventStream } from '@/lib/event-stream';

export interface PlaygroundMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The playground's call body (`POST /pg/chat/completions`, streamed). */
export interface PlaygroundRequest {
  messages: PlaygroundMessage[];
  stream: true;
  model: string;
  group: string;
  temperature: number;
  /** Sent only when above 0 (the default 0 = not sent). */
  max_tokens?: number;
}

export type PlaygroundEnd = { kind: 'done' } | { kind: 'error'; message: string };

interface StreamChunk {
  choices?: Array<{ delta?: { content?: string | null } }>;
  error?: unknown;
}

/**
 * Streams a playground reply: `onDelta` gets each piece of choices[0].delta.content. Ends on
 * [DONE] or on an empty choices list; an error event ends it with the event's data.
 */
export async function streamPlayground(
  body: PlaygroundRequest,
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<PlaygroundEnd> {
  let streamError: string | undefined;
  const end = await postEventStream(
    '/pg/chat/completions',
    body,
    {
      onData: (data) => {
        let chunk: StreamChunk;
        try {
          chunk = JSON.parse(data) as StreamChunk;
        } catch {
          return false;
        }
        if (chunk.error !== undefined) {
          streamError = data;
          return true;
        }
        if (!Array.isArray(chunk.choices) || chunk.choices.length === 0) return true;
        const text = chunk.choices[0]?.delta?.content;
        if (text) onDelta(text);
        return false;
      },
    },
    signal,
  );
  if (streamError !== undefined) return { kind: 'error', message: streamError };
  return end;
}
