import type { dashboardZhCN } from './zh-cn';

export const dashboardEn: typeof dashboardZhCN = {
  dashboard: {
    title: 'Data dashboard',
    filters: {
      start: 'Start time',
      end: 'End time',
      username: 'Username',
      usernamePlaceholder: 'All users',
      timePlaceholder: 'YYYY-MM-DD HH:mm:ss',
      granularity: 'Granularity',
    },
    granularity: {
      hour: 'Hour',
      day: 'Day',
      week: 'Week',
    },
    badTime: 'Invalid time format!',
    cards: {
      quota: 'Quota spent',
      count: 'Requests',
      tokens: 'Tokens',
      rpm: 'Average RPM',
      tpm: 'Average TPM',
    },
    charts: {
      quota: 'Spend by model',
      count: 'Requests by model',
      share: 'Share of requests by model',
    },
    failures: {
      titleChannels: 'Failure rate per channel',
      titleModels: 'Failure rate per model',
      channel: 'Channel',
      model: 'Model',
      calls: 'Calls',
      failed: 'Failed',
      rate: 'Failure rate',
      none: 'No calls in the chosen range',
    },
    performance: {
      title: 'Channel performance (last hour)',
      channel: 'Channel',
      model: 'Model',
      calls: 'Attempts',
      errorRate: 'Error rate',
      share: 'Share',
      p50: 'Time p50',
      p99: 'Time p99',
      ttftP50: 'First token p50',
      ttftP99: 'First token p99',
      hint: 'Times are the upper bound of the histogram bucket they fall in (buckets grow by 1.5×)',
      none: 'No calls in the last hour',
    },
    empty: 'No usage in the selected time range',
    refreshing: 'Refreshing…',
  },
};
