import { useCallback, useEffect, useRef, useState } from 'react';
import { type PlaygroundMessage, streamPlayground } from '../api/playground.api';

/** A reply's course: loading, then incomplete while text streams, then complete or error. */
export type ReplyStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatEntry {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  status?: ReplyStatus;
}

export interface PlaygroundSettings {
  group: string;
  model: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
}

/** The conversation and the one reply that may be streaming. */
export function usePlaygroundChat() {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [busy, setBusy] = useState(false);
  const nextId = useRef(1);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const update = (id: number, change: (entry: ChatEntry) => ChatEntry) =>
    setEntries((list) => list.map((e) => (e.id === id ? change(e) : e)));

  const send = useCallback(
    async (text: string, settings: PlaygroundSettings) => {
      const question = text.trim();
      if (!question || busy || !settings.model) return;
      const history = entries
        .filter((e) => e.role === 'user' || e.status === 'complete')
        .map((e): PlaygroundMessage => ({ role: e.role, content: e.content }));
      const messages: PlaygroundMessage[] = [
        ...(settings.systemPrompt.trim()
          ? [{ role: 'system' as const, content: settings.systemPrompt.trim() }]
          : []),
        ...history,
        { role: 'user', content: question },
      ];
      const userId = nextId.current++;
      const replyId = nextId.current++;
      setEntries((list) => [
        ...list,
        { id: userId, role: 'user', content: question },
        { id: replyId, role: 'assistant', content: '', status: 'loading' },
      ]);
      setBusy(true);
      const abort = new AbortController();
      controller.current = abort;
      const end = await streamPlayground(
        {
          messages,
          stream: true,
          model: settings.model,
          group: settings.group,
          temperature: settings.temperature,
          ...(settings.maxTokens > 0 ? { max_tokens: settings.maxTokens } : {}),
        },
        (delta) =>
          update(replyId, (e) => ({ ...e, content: e.content + delta, status: 'incomplete' })),
        abort.signal,
      );
      controller.current = null;
      setBusy(false);
      if (end.kind === 'error' && !abort.signal.aborted) {
        // The error's text is appended to what the reply had streamed.
        update(replyId, (e) => ({
          ...e,
          content: e.content ? `${e.content}\n${end.message}` : end.message,
          status: 'error',
        }));
      } else update(replyId, (e) => ({ ...e, status: 'complete' }));
    },
    [busy, entries],
  );

  const stop = useCallback(() => controller.current?.abort(), []);
  const clear = useCallback(() => {
    controller.current?.abort();
    setEntries([]);
  }, []);

  return { entries, busy, send, stop, clear };
}
