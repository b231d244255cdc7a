import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
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

/**
 * One option change, an event with old and new value; secret values are sealed before they reach the
 * log. The stored value again changes nothing and succeeds.
 */
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
    try {
      const result = await this.store.execute(OPTIONS_STREAM, optionsDecider, command, meta);
      await this.readYourWrites.waitFor(result.position);
    } catch (error) {
      // The stored value again: nothing to record, and nothing wrong (new-api saves it and answers
      // success; forms that save several keys at once send the unchanged ones too). The console
      // says "你似乎并没有修改什么" itself before it sends anything.
      if (!(error instanceof DomainError && error.code === 'option.unchanged')) throw error;
    }
  }

  private sealSecret(text: string) {
    return this.secretBox.seal(text.trim());
  }
}
