import { useCallback, useEffect, useRef, useState } from 'react';
import {
  type PlaygroundMessage,
  type PlaygroundRequest,
  streamPlayground,
} from '../api/playground.api';
import { readReplyError, type ReplyError } from '../utils/reply-error';

/** A reply's course: loading, then incomplete while text streams, then complete or error. */
export type ReplyStatus = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatEntry {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  status?: ReplyStatus;
  /** Why the reply failed, as the user reads it. */
  error?: ReplyError;
}

export interface PlaygroundSettings {
  group: string;
  model: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
}

/** What is sent before the new question: the system prompt, then the answered conversation. */
function historyOf(entries: ChatEntry[], settings: PlaygroundSettings): PlaygroundMessage[] {
  const system = settings.systemPrompt.trim();
  return [
    ...(system ? [{ role: 'system' as const, content: system }] : []),
    ...entries
      .filter((e) => e.role === 'user' || e.status === 'complete')
      .map((e): PlaygroundMessage => ({ role: e.role, content: e.content })),
  ];
}

/** The call body: the messages with the chosen model, group and sampling. */
function requestOf(messages: PlaygroundMessage[], settings: PlaygroundSettings): PlaygroundRequest {
  return {
    messages,
    stream: true,
    model: settings.model,
    group: settings.group,
    temperature: settings.temperature,
    ...(settings.maxTokens > 0 ? { max_tokens: settings.maxTokens } : {}),
  };
}

/** The conversation and the one reply that may be streaming; a reply can be asked for again. */
export function usePlaygroundChat() {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [busy, setBusy] = useState(false);
  const nextId = useRef(1);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const update = (id: number, change: (entry: ChatEntry) => ChatEntry) =>
    setEntries((list) => list.map((e) => (e.id === id ? change(e) : e)));

  /** Streams the reply `replyId` (already listed, loading) to `messages`. */
  const stream = async (
    replyId: number,
    messages: PlaygroundMessage[],
    settings: PlaygroundSettings,
  ) => {
    setBusy(true);
    const abort = new AbortController();
    controller.current = abort;
    const end = await streamPlayground(
      requestOf(messages, settings),
      (delta) =>
        update(replyId, (e) => ({ ...e, content: e.content + delta, status: 'incomplete' })),
      abort.signal,
    );
    controller.current = null;
    setBusy(false);
    if (end.kind === 'error' && !abort.signal.aborted) {
      // What streamed before the error stays; the error is shown below it.
      const error = readReplyError(end.message);
      update(replyId, (e) => ({ ...e, status: 'error', error }));
    } else update(replyId, (e) => ({ ...e, status: 'complete' }));
  };

  const send = async (text: string, settings: PlaygroundSettings) => {
    const question = text.trim();
    if (!question || busy || !settings.model) return;
    const messages = [
      ...historyOf(entries, settings),
      { role: 'user' as const, content: question },
    ];
    const userId = nextId.current++;
    const replyId = nextId.current++;
    setEntries((list) => [
      ...list,
      { id: userId, role: 'user', content: question },
      { id: replyId, role: 'assistant', content: '', status: 'loading' },
    ]);
    await stream(replyId, messages, settings);
  };

  /** Asks again for a reply: it and what followed it are replaced by a new answer. */
  const regenerate = async (replyId: number, settings: PlaygroundSettings) => {
    const at = entries.findIndex((e) => e.id === replyId);
    const question = entries[at - 1];
    if (busy || !settings.model || at < 1 || question?.role !== 'user') return;
    const messages = [
      ...historyOf(entries.slice(0, at - 1), settings),
      { role: 'user' as const, content: question.content },
    ];
    const newId = nextId.current++;
    setEntries((list) => [
      ...list.slice(0, at),
      { id: newId, role: 'assistant', content: '', status: 'loading' },
    ]);
    await stream(newId, messages, settings);
  };

  const stop = useCallback(() => controller.current?.abort(), []);
  const clear = useCallback(() => {
    controller.current?.abort();
    setEntries([]);
  }, []);

  return { entries, busy, send, regenerate, stop, clear };
}
