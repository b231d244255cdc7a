import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useSessionUser } from '@/features/auth';
import { selfQueries } from '@/features/setting';
import { isChatModel } from '../utils/chat-models';
import type { PlaygroundSettings } from './use-playground-chat';

/** The model chosen at first when the user's models include it. */
const DEFAULT_MODEL = 'gpt-4o-mini';

/**
 * The playground's settings (group, model, temperature, max tokens, system prompt) and what the
 * group and model selectors offer. The model is kept among the offered ones.
 */
export function usePlaygroundSettings() {
  const user = useSessionUser();
  const groups = useQuery(selfQueries.groups());
  const models = useQuery(selfQueries.models());
  const [settings, setSettings] = useState<PlaygroundSettings>({
    group: user?.group ?? 'default',
    model: '',
    temperature: 0.7,
    maxTokens: 0,
    systemPrompt: '',
  });

  const groupOptions = useMemo(
    () =>
      Object.entries(groups.data ?? {}).map(([value, { desc }]) => ({
        value,
        label: desc ? `${value} (${desc})` : value,
      })),
    [groups.data],
  );
  // One list for every group, as new-api's playground offers it: the relay refuses a model the
  // chosen group does not reach. Only models that chat (no embedding, image, audio… model).
  const modelOptions = useMemo(() => (models.data ?? []).filter(isChatModel), [models.data]);

  // Keep the chosen model valid for the group; prefer gpt-4o-mini when it is offered.
  useEffect(() => {
    if (modelOptions.includes(settings.model)) return;
    const model = modelOptions.includes(DEFAULT_MODEL) ? DEFAULT_MODEL : (modelOptions[0] ?? '');
    setSettings((s) => ({ ...s, model }));
  }, [modelOptions, settings.model]);

  /** Sets one setting. */
  const change = <K extends keyof PlaygroundSettings>(name: K, value: PlaygroundSettings[K]) =>
    setSettings((s) => ({ ...s, [name]: value }));

  return { settings, change, groupOptions, modelOptions };
}
