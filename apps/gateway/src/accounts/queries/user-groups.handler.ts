import { Query, QueryBus, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { GroupModelsQuery } from '../../channels/queries/channel-queries.handler';
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
  constructor(
    private readonly options: OptionsCache,
    private readonly queries: QueryBus,
  ) {}

  execute({ ownGroup }: UserModelsQuery): Promise<Record<string, string[]>> {
    // The channels' routing read model says which models each usable group reaches.
    const groups = Object.keys(usableGroups(this.options, ownGroup));
    return this.queries.execute(new GroupModelsQuery(groups));
  }
}
