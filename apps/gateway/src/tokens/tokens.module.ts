import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { ChangeTokenHandler } from './commands/change-token.handler';
import { CreateTokensHandler } from './commands/create-tokens.handler';
import { MarkTokenExhaustedHandler, MarkTokenExpiredHandler } from './commands/mark-token.handler';
import { GetTokenHandler, ListTokensHandler } from './queries/token-queries.handler';
import { TokenDirectory } from './token-directory';
import { TokensController } from './tokens.controller';

/** Tokens: API, commands (incl. the relay's MarkTokenExpired/Exhausted) and the token directory. */
@Global()
@Module({
  controllers: [TokensController],
  providers: [
    TokenDirectory,
    CreateTokensHandler,
    ChangeTokenHandler,
    MarkTokenExpiredHandler,
    MarkTokenExhaustedHandler,
    ListTokensHandler,
    GetTokenHandler,
  ],
  exports: [TokenDirectory],
})
export class TokensModule implements OnModuleInit {
  constructor(
    private readonly feed: CacheFeed,
    private readonly directory: TokenDirectory,
  ) {}

  onModuleInit(): void {
    this.feed.register(this.directory);
  }
}
