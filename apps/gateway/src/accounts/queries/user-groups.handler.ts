import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { OptionsCache } from '../../options/options.cache';

/** Groups a user may pick: the admin's UserUsableGroups plus the user's own group (code → label). */
export class UserGroupsQuery extends Query<Record<string, string>> {
  constructor(readonly ownGroup: string) {
    super();
  }
}

/** Models usable per group (group → model names). Channels (the channel issue) feed the abilities. */
export class UserModelsQuery extends Query<Record<string, string[]>> {
  constructor(readonly ownGroup: string) {
    super();
  }
}

function usableGroups(options: OptionsCache, ownGroup: string): Record<string, string> {
  const groups = { ...options.json<Record<string, string>>('UserUsableGroups', {}) };
  if (ownGroup && !(ownGroup in groups)) groups[ownGroup] = ownGroup;
  return groups;
}

@QueryHandler(UserGroupsQuery)
export class UserGroupsHandler implements IQueryHandler<UserGroupsQuery> {
  constructor(private readonly options: OptionsCache) {}

  execute({ ownGroup }: UserGroupsQuery): Promise<Record<string, string>> {
    return Promise.resolve(usableGroups(this.options, ownGroup));
  }
}

@QueryHandler(UserModelsQuery)
export class UserModelsHandler implements IQueryHandler<UserModelsQuery> {
  constructor(private readonly options: OptionsCache) {}

  execute({ ownGroup }: UserModelsQuery): Promise<Record<string, string[]>> {
    // No channel exists before the channel work lands, so no model is routable yet in any group.
    const result: Record<string, string[]> = {};
    for (const group of Object.keys(usableGroups(this.options, ownGroup))) result[group] = [];
    return Promise.resolve(result);
  }
}
