import type { playgroundZhCN } from './zh-cn';

export const playgroundEn: typeof playgroundZhCN = {
  playground: {
    title: 'Playground',
    group: 'Group',
    model: 'Model',
    temperature: 'Temperature',
    maxTokens: 'Max tokens',
    maxTokensHint: '0 means no limit',
    systemPrompt: 'System prompt',
    systemPromptPlaceholder: 'You are a helpful assistant.',
    placeholder: 'Type a message: Enter sends, Shift + Enter adds a line',
    send: 'Send',
    stop: 'Stop',
    clear: 'Clear context',
    empty: 'Start a conversation',
    you: 'You',
    assistant: 'Assistant',
    loading: 'Thinking…',
    incomplete: 'Generating',
    error: 'Error',
    copy: 'Copy the reply',
    regenerate: 'Regenerate',
    topUp: 'Balance too low: top up in the wallet',
    noModel: 'No model is available in this group',
  },
};
