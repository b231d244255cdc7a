import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  OPTIONS_STREAM,
  blankWhenAbsent,
  isSecretOption,
  optionDefinition,
  optionsDecider,
  type OptionsCommand,
} from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { SecretBox } from '../../infrastructure/secret-box';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';

export class UpdateOptionCommand extends Command<void> {
  constructor(
    readonly key: string,
    readonly value: unknown,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** 输入不合法：字段 value 不能为空 — what the validation pipe says of a missing field. */
const valueRequired = () =>
  new ApiError('common.invalid_input', {
    detail: [
      {
        code: 'validation.required',
        params: { field: { code: 'validation.field', params: { name: 'value' } } },
      },
    ],
  });

function asOptionText(key: string, value: unknown): string {
  if (value === undefined) {
    // An unknown key falls through to the decider's "未知的配置项".
    const definition = optionDefinition(key);
    if (definition && !blankWhenAbsent(definition)) throw valueRequired();
    return '';
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
    return String(value);
  throw new ApiError('common.invalid_params');
}

/** One option change, an event with old and new value; secret values are sealed before they reach the log. */
@CommandHandler(UpdateOptionCommand)
export class UpdateOptionHandler implements ICommandHandler<UpdateOptionCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly secretBox: SecretBox,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ key, value, meta }: UpdateOptionCommand) {
    const text = asOptionText(key, value);
    const command: OptionsCommand = isSecretOption(key)
      ? { type: 'ChangeSecretOption', key, sealed: text === '' ? null : this.sealSecret(text) }
      : { type: 'ChangeOption', key, value: text };
    const result = await this.store.execute(OPTIONS_STREAM, optionsDecider, command, meta);
    await this.readYourWrites.waitFor(result.position);
  }

  private sealSecret(text: string) {
    return this.secretBox.seal(text.trim());
  }
}
