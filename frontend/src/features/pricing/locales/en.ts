import type { pricingZhCN } from './zh-cn';

export const pricingEn: typeof pricingZhCN = {
  pricing: {
    signedIn: 'Your group is {{group}}, its group ratio is {{ratio}}.',
    anonymous: 'You are not signed in: prices are those of the default group, ratio {{ratio}}.',
    formula:
      'Prices follow the selected group’s ratio: a per-token model costs model ratio × 2 × group ratio per 1M prompt tokens, times the completion ratio for completion tokens; a per-call model costs model price × group ratio per call.',
    search: 'Fuzzy search by model name',
    group: 'Group',
    groupOption: '{{group}} (ratio {{ratio}})',
    copySelected: 'Copy selected models',
    selectRow: 'Select model {{name}}',
    copyName: 'Copy the model name {{name}}',
    viewGroup: 'View the prices of group {{group}}',
    groupSwitched: 'Now viewing group {{group}}, ratio {{ratio}}',
    columns: {
      available: 'Available',
      model: 'Model',
      type: 'Billing',
      groups: 'Groups',
      ratio: 'Ratios',
      price: 'Price',
    },
    quotaType: { ratio: 'Per token', perCall: 'Per call' },
    available: 'The selected group can use this model',
    unavailable: 'The selected group cannot use this model',
    modelRatio: 'Model ratio: {{value}}',
    completionRatio: 'Completion ratio: {{value}}',
    groupRatio: 'Group ratio: {{value}}',
    unpriced: 'No price set',
    unpricedHint:
      'No ratio or price is set for this model: calls are refused (self-use mode bills the default ratio)',
    selfUseRatio: 'Self-use mode bills it at the default ratio {{ratio}}',
    none: 'none',
    prompt: 'Prompt {{price}} / 1M tokens',
    completion: 'Completion {{price}} / 1M tokens',
    perCall: '{{price}} / call',
  },
};
