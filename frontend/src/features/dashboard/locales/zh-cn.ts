/** Data dashboard (/detail) texts. */
export const dashboardZhCN = {
  dashboard: {
    title: '数据看板',
    filters: {
      start: '起始时间',
      end: '结束时间',
      username: '用户名称',
      usernamePlaceholder: '全部用户',
      timePlaceholder: 'YYYY-MM-DD HH:mm:ss',
      granularity: '时间粒度',
    },
    granularity: {
      hour: '小时',
      day: '天',
      week: '周',
    },
    badTime: '时间格式错误！',
    cards: {
      quota: '消耗额度',
      count: '请求次数',
      tokens: 'Token 数',
      rpm: '平均 RPM',
      tpm: '平均 TPM',
    },
    charts: {
      quota: '消耗分布',
      count: '请求次数',
      share: '模型调用次数占比',
    },
    failures: {
      titleChannels: '渠道失败率',
      titleModels: '模型失败率',
      channel: '渠道',
      model: '模型',
      calls: '调用次数',
      failed: '失败次数',
      rate: '失败率',
      none: '所选时间范围内暂无调用',
    },
    empty: '所选时间范围内暂无数据',
    refreshing: '刷新中…',
  },
};
