/** Playground texts. */
export const playgroundZhCN = {
  playground: {
    title: '操练场',
    group: '分组',
    model: '模型',
    temperature: '温度',
    maxTokens: '最大 Token 数',
    maxTokensHint: '0 表示不限制',
    systemPrompt: '系统提示词',
    systemPromptPlaceholder: '你是一个乐于助人的助手。',
    placeholder: '输入消息，Enter 发送，Shift + Enter 换行',
    send: '发送',
    stop: '停止',
    clear: '清除上下文',
    empty: '开始一段对话吧',
    you: '你',
    assistant: '助手',
    loading: '思考中…',
    incomplete: '生成中',
    error: '出错了',
    noModel: '当前分组没有可用模型',
  },
};
