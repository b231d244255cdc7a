import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DEFAULT_PAGE_SIZE, type TokenDto } from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { BudgetUsage } from '../../billing/budget-usage';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { SecretBox, sha256Hex } from '../../infrastructure/secret-box';
import { ApiError } from '../../shared/api-error';
import { escapeRegex } from '../../shared/escape-regex';
import { TOKENS, toTokenDto, type TokenDocument } from '../token.document';

/** The owner's tokens, newest first: bare array, 0-based page; optional name/key search. */
export class ListTokensQuery extends Query<TokenDto[]> {
  constructor(
    readonly userId: number,
    readonly page: number,
    readonly size: number,
    readonly keyword = '',
    readonly key = '',
  ) {
    super();
  }
}

export class GetTokenQuery extends Query<TokenDto> {
  constructor(
    readonly userId: number,
    readonly tokenId: number,
  ) {
    super();
  }
}

@QueryHandler(ListTokensQuery)
export class ListTokensHandler implements IQueryHandler<ListTokensQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly secretBox: SecretBox,
    private readonly budgets: BudgetUsage,
  ) {}

  async execute({ userId, page, size, keyword, key }: ListTokensQuery): Promise<TokenDto[]> {
    const filter: Filter = { user_id: userId };
    // Case-insensitive, like every other search of the console (users, channels, codes).
    if (keyword.trim()) filter['name'] = { $regex: escapeRegex(keyword.trim()), $options: 'i' };
    const bare = key.trim().replace(/^sk-/, '');
    // A key is looked up by its hash: the read store holds no clear keys to match against.
    if (bare) filter['key_hash'] = sha256Hex(bare);
    const limit = size || DEFAULT_PAGE_SIZE;
    const docs = await this.readStore
      .collection<TokenDocument>(TOKENS)
      .find(filter, { sort: { id: -1 }, skip: Math.max(0, page) * limit, limit });
    return this.budgets.fill(
      'token',
      docs.map((doc) => toTokenDto(doc, this.secretBox.open({ cipher: doc.key_cipher, hash: '' }))),
    );
  }
}

@QueryHandler(GetTokenQuery)
export class GetTokenHandler implements IQueryHandler<GetTokenQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly secretBox: SecretBox,
    private readonly budgets: BudgetUsage,
  ) {}

  async execute({ userId, tokenId }: GetTokenQuery): Promise<TokenDto> {
    const doc = await this.readStore.collection<TokenDocument>(TOKENS).get(String(tokenId));
    // Someone else's token answers exactly like a missing one.
    if (!doc || doc.user_id !== userId) throw new ApiError('token.not_found');
    const [dto] = this.budgets.fill('token', [
      toTokenDto(doc, this.secretBox.open({ cipher: doc.key_cipher, hash: '' })),
    ]);
    return dto!;
  }
}
