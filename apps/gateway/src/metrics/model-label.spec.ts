import { ModelLabels, type ModelSource } from './model-label';

function source(models: string[][]) {
  let version = new Map<string, readonly string[]>();
  let channels = models.map((list) => ({ models: list }));
  const table: ModelSource = { servedModels: () => version, all: () => channels };
  return {
    table,
    change(next: string[][]) {
      channels = next.map((list) => ({ models: list }));
      version = new Map();
    },
  };
}

describe('ModelLabels', () => {
  it('keeps the models a channel lists, folds any other name into "other" and none into "none"', () => {
    const labels = new ModelLabels(source([['gpt-4o'], ['gpt-4o-mini', 'o3']]).table);
    expect(labels.label('gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(labels.label('o3')).toBe('o3');
    expect(labels.label('anything-a-client-sends')).toBe('other');
    expect(labels.label('')).toBe('none');
  });

  it('follows the routing table when it changes, and only then reads its channels', () => {
    const routing = source([['gpt-4o']]);
    const all = jest.spyOn(routing.table, 'all');
    const labels = new ModelLabels(routing.table);
    expect(labels.label('claude-3')).toBe('other');
    expect(labels.label('gpt-4o')).toBe('gpt-4o');
    expect(all).toHaveBeenCalledTimes(1);
    routing.change([['gpt-4o', 'claude-3']]);
    expect(labels.label('claude-3')).toBe('claude-3');
    expect(all).toHaveBeenCalledTimes(2);
  });
});
