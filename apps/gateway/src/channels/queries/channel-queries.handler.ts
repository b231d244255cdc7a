import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  CHANNEL_TYPE_MODELS,
  CHANNEL_TYPES,
  DEFAULT_PAGE_SIZE,
  channelTypeInfo,
  type ChannelDto,
  type KnownModelDto,
} from '@tollgate/contracts';
import { DomainError, assertHttpBaseUrl } from '@tollgate/domain';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { SecretBox } from '../../infrastructure/secret-box';
import {
  ABILITIES,
  CHANNELS,
  toChannelDto,
  type AbilityDocument,
  type ChannelDocument,
} from '../channel.document';
import { ChannelUpstream, UpstreamError } from '../channel-upstream';
import { RoutingTable } from '../routing-table';

export interface ChannelSearch {
  readonly keyword?: string;
  readonly group?: string;
  readonly model?: string;
}

export class ListChannelsQuery extends Query<ChannelDto[]> {
  constructor(
    readonly page: number,
    readonly pageSize: number,
    readonly idSort: boolean,
    readonly search: ChannelSearch = {},
  ) {
    super();
  }
}

export class GetChannelQuery extends Query<ChannelDto> {
  constructor(readonly id: number) {
    super();
  }
}

/** GET /api/channel/models: every model the server knows (presets and configured ones). */
export class KnownModelsQuery extends Query<KnownModelDto[]> {}

/** Model ids from a provider: of an existing channel (id) or of the add form's fields. */
export class FetchModelsQuery extends Query<string[]> {
  constructor(readonly source: { id: number } | { type: number; key: string; baseUrl: string }) {
    super();
  }
}

/** group → models reachable through enabled channels (GET /api/user/models lists their union). */
export class GroupModelsQuery extends Query<Record<string, string[]>> {
  constructor(readonly groups: readonly string[]) {
    super();
  }
}

/** type → models: the type's presets plus every model configured on a channel of that type. */
export class ModelsByTypeQuery extends Query<Record<number, string[]>> {}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Keyword: id, name, base URL, tag, or the exact key (by its keyed hash). */
export function channelSearchFilter(
  search: ChannelSearch,
  keyHash: (key: string) => string,
): Filter {
  const and: Filter[] = [];
  const term = search.keyword?.trim() ?? '';
  if (term) {
    const pattern = { $regex: escapeRegex(term), $options: 'i' };
    const anyOf: Filter[] = [
      { name: pattern },
      { base_url: pattern },
      { tag: pattern },
      { key_hash: keyHash(term) },
    ];
    if (/^\d+$/.test(term)) anyOf.push({ id: Number(term) });
    and.push({ $or: anyOf });
  }
  const group = search.group?.trim() ?? '';
  if (group) and.push({ group: { $regex: `(^|,)${escapeRegex(group)}(,|$)` } });
  const model = search.model?.trim() ?? '';
  if (model) and.push({ models: { $regex: escapeRegex(model), $options: 'i' } });
  return and.length === 0 ? {} : and.length === 1 ? and[0]! : { $and: and };
}

@QueryHandler(ListChannelsQuery)
export class ListChannelsHandler implements IQueryHandler<ListChannelsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly secretBox: SecretBox,
  ) {}

  async execute({ page, pageSize, idSort, search }: ListChannelsQuery): Promise<ChannelDto[]> {
    const size = pageSize || DEFAULT_PAGE_SIZE;
    const docs = await this.readStore.collection<ChannelDocument>(CHANNELS).find(
      channelSearchFilter(search, (key) => this.secretBox.keyedHash(key)),
      {
        sort: idSort ? { id: -1 } : { priority: -1, id: -1 },
        skip: Math.max(0, page) * size,
        limit: size,
      },
    );
    return docs.map(toChannelDto);
  }
}

@QueryHandler(GetChannelQuery)
export class GetChannelHandler implements IQueryHandler<GetChannelQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ id }: GetChannelQuery): Promise<ChannelDto> {
    const doc = await this.readStore.collection<ChannelDocument>(CHANNELS).get(String(id));
    if (!doc) throw new DomainError('channel.not_found');
    return toChannelDto(doc);
  }
}

async function modelsByType(readStore: ReadStore): Promise<Map<number, Set<string>>> {
  const byType = new Map<number, Set<string>>();
  for (const [type, models] of Object.entries(CHANNEL_TYPE_MODELS))
    byType.set(Number(type), new Set(models));
  for (const doc of await readStore.collection<ChannelDocument>(CHANNELS).find({})) {
    const set = byType.get(doc.type) ?? new Set<string>();
    for (const model of doc.model_list) set.add(model);
    byType.set(doc.type, set);
  }
  return byType;
}

@QueryHandler(KnownModelsQuery)
export class KnownModelsHandler implements IQueryHandler<KnownModelsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(): Promise<KnownModelDto[]> {
    const seen = new Map<string, KnownModelDto>();
    for (const [type, models] of await modelsByType(this.readStore))
      for (const id of models)
        if (!seen.has(id))
          seen.set(id, { id, object: 'model', owned_by: CHANNEL_TYPES[type] ?? 'unknown' });
    return [...seen.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}

@QueryHandler(ModelsByTypeQuery)
export class ModelsByTypeHandler implements IQueryHandler<ModelsByTypeQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(): Promise<Record<number, string[]>> {
    const result: Record<number, string[]> = {};
    for (const [type, models] of await modelsByType(this.readStore)) result[type] = [...models];
    return result;
  }
}

@QueryHandler(GroupModelsQuery)
export class GroupModelsHandler implements IQueryHandler<GroupModelsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ groups }: GroupModelsQuery): Promise<Record<string, string[]>> {
    const rows = await this.readStore
      .collection<AbilityDocument>(ABILITIES)
      .find({ group: { $in: [...groups] }, enabled: true });
    const result: Record<string, string[]> = {};
    for (const group of groups) result[group] = [];
    for (const row of rows) {
      const list = result[row.group];
      if (list && !list.includes(row.model)) list.push(row.model);
    }
    for (const list of Object.values(result)) list.sort();
    return result;
  }
}

/** Every model an enabled channel serves, once each (new-api's GET /api/channel/models_enabled). */
export class EnabledModelsQuery extends Query<string[]> {}

@QueryHandler(EnabledModelsQuery)
export class EnabledModelsHandler implements IQueryHandler<EnabledModelsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(): Promise<string[]> {
    const rows = await this.readStore
      .collection<AbilityDocument>(ABILITIES)
      .find({ enabled: true });
    return [...new Set(rows.map((row) => row.model))].sort();
  }
}

@QueryHandler(FetchModelsQuery)
export class FetchModelsHandler implements IQueryHandler<FetchModelsQuery> {
  constructor(
    private readonly table: RoutingTable,
    private readonly upstream: ChannelUpstream,
  ) {}

  async execute({ source }: FetchModelsQuery): Promise<string[]> {
    let target: { type: number; key: string; baseUrl: string };
    if ('id' in source) {
      const channel = this.table.channel(source.id);
      if (!channel) throw new DomainError('channel.not_found');
      target = channel;
    } else {
      target = source;
      if (!target.key.trim()) throw new DomainError('channel.fetch_models_key_required');
      if (target.baseUrl.trim()) assertHttpBaseUrl(target.baseUrl.trim());
    }
    if (!channelTypeInfo(target.type)?.modelListApi)
      throw new DomainError('channel.fetch_models_unsupported');
    // A multi-line key field (batch create) asks with its first key.
    const key = target.key.split('\n')[0]!.trim();
    try {
      return await this.upstream.listModels({ ...target, key });
    } catch (error) {
      if (error instanceof UpstreamError)
        throw new DomainError('channel.fetch_models_failed', { detail: error.failure.message });
      throw error;
    }
  }
}
