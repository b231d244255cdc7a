import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DEFAULT_PAGE_SIZE, type PageOf, type RedemptionDto } from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { SecretBox } from '../../infrastructure/secret-box';
import { ApiError } from '../../shared/api-error';
import { escapeRegex } from '../../shared/escape-regex';
import { REDEMPTIONS, toRedemptionDto, type RedemptionDocument } from '../redemption.document';

/** Codes newest first, `{items,total,page,page_size}` with a 1-based page; keyword = id or name. */
export class ListRedemptionsQuery extends Query<PageOf<RedemptionDto>> {
  constructor(
    readonly page: number,
    readonly pageSize: number,
    readonly keyword = '',
  ) {
    super();
  }
}

export class GetRedemptionQuery extends Query<RedemptionDto> {
  constructor(readonly id: number) {
    super();
  }
}

@QueryHandler(ListRedemptionsQuery)
export class ListRedemptionsHandler implements IQueryHandler<ListRedemptionsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly secretBox: SecretBox,
  ) {}

  async execute({ page, pageSize, keyword }: ListRedemptionsQuery) {
    const size = pageSize || DEFAULT_PAGE_SIZE;
    const current = Math.max(1, page);
    const term = keyword.trim();
    const filter: Filter = {};
    if (term) {
      const anyOf: Filter[] = [{ name: { $regex: escapeRegex(term), $options: 'i' } }];
      if (/^\d+$/.test(term)) anyOf.push({ id: Number(term) });
      filter['$or'] = anyOf;
    }
    const codes = this.readStore.collection<RedemptionDocument>(REDEMPTIONS);
    const [docs, total] = await Promise.all([
      codes.find(filter, { sort: { id: -1 }, skip: (current - 1) * size, limit: size }),
      codes.count(filter),
    ]);
    return {
      items: docs.map((d) =>
        toRedemptionDto(d, this.secretBox.open({ cipher: d.key_cipher, hash: '' })),
      ),
      total,
      page: current,
      page_size: size,
    };
  }
}

@QueryHandler(GetRedemptionQuery)
export class GetRedemptionHandler implements IQueryHandler<GetRedemptionQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly secretBox: SecretBox,
  ) {}

  async execute({ id }: GetRedemptionQuery): Promise<RedemptionDto> {
    const doc = await this.readStore.collection<RedemptionDocument>(REDEMPTIONS).get(String(id));
    if (!doc) throw new ApiError('redemption.not_found');
    return toRedemptionDto(doc, this.secretBox.open({ cipher: doc.key_cipher, hash: '' }));
  }
}
