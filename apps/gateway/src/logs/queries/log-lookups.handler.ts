import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { LOG_TYPES, RECENT_LOG_ROWS, UserStatus, type LogDto } from '@tollgate/contracts';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { keyOfAuthorization } from '../../relay/relay-admission';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { sha256Hex } from '../../infrastructure/secret-box';
import { ApiError } from '../../shared/api-error';
import { escapeRegex } from '../../shared/escape-regex';
import { TOKENS, type TokenDocument } from '../../tokens/token.document';
import { USERS, type UserDocument } from '../../users/user.document';
import { logStore } from '../log-store';
import { forSelf } from './log-views';

/** One user's latest rows whose token or model name holds the keyword. */
export class SearchSelfLogsQuery extends Query<LogDto[]> {
  constructor(
    readonly userId: number,
    readonly keyword: string,
  ) {
    super();
  }
}

/** One token's latest rows, for whoever holds its key (`sk-…`, bare, or `Bearer …`). */
export class TokenLogsQuery extends Query<LogDto[]> {
  constructor(readonly key: string) {
    super();
  }
}

const LATEST = { sort: { id: -1 }, limit: RECENT_LOG_ROWS } as const;

/**
 * The search filter: the keyword in the token or model name; a type number (new-api's search
 * matched the keyword against the row type) also finds the rows of that type.
 */
export function selfSearchFilter(userId: number, keyword: string): Filter {
  const term = keyword.trim();
  if (!term) return { user_id: userId };
  const pattern = { $regex: escapeRegex(term), $options: 'i' };
  const anyOf: Filter[] = [{ token_name: pattern }, { model_name: pattern }];
  const type = Number(term);
  if (/^\d$/.test(term) && (LOG_TYPES as readonly number[]).includes(type)) anyOf.push({ type });
  return { user_id: userId, $or: anyOf };
}

@QueryHandler(SearchSelfLogsQuery)
export class SearchSelfLogsHandler implements IQueryHandler<SearchSelfLogsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ userId, keyword }: SearchSelfLogsQuery): Promise<LogDto[]> {
    const docs = await logStore(this.readStore).find(selfSearchFilter(userId, keyword), LATEST);
    return docs.map(forSelf);
  }
}

/**
 * new-api's read-only token check: the key must name a token (whatever its status: an expired or
 * used-up key may still read its history) of a user who is not banned. Only that token's rows,
 * as its owner sees them. The same refusal for a missing and an unknown key: it tells a guesser
 * nothing (the route is rate limited per IP besides).
 */
@QueryHandler(TokenLogsQuery)
export class TokenLogsHandler implements IQueryHandler<TokenLogsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ key }: TokenLogsQuery): Promise<LogDto[]> {
    // `sk-<key>-<channel>` pins a channel on the relay: the key is the part before the dash.
    const bare = keyOfAuthorization(key).split('-')[0] ?? '';
    if (!bare) throw new ApiError('log.token_invalid');
    const [token] = await this.readStore
      .collection<TokenDocument>(TOKENS)
      .find({ key_hash: sha256Hex(bare) }, { limit: 1 });
    if (!token) throw new ApiError('log.token_invalid');
    const owner = await this.readStore.collection<UserDocument>(USERS).get(String(token.user_id));
    if (!owner || owner.status !== UserStatus.Enabled) throw new ApiError('log.user_banned');
    const docs = await logStore(this.readStore).find({ token_id: token.id }, LATEST);
    return docs.map(forSelf);
  }
}
