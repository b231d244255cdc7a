/** Chat link texts, in new-api's wording. */
export const chatZhCN = {
  chat: {
    frameTitle: '聊天',
    redirecting: '正在跳转...',
    loading: '正在加载，请稍候...',
    linkBad: '聊天链接配置错误，请联系管理员',
    linkMissing: '请联系管理员配置聊天链接',
    parseFailed: '聊天数据解析失败',
    noEnabledToken: '当前没有可用的启用令牌，请确认是否有令牌处于启用状态！',
  },
};
