import { ValidationPipe, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsString,
  IsUrl,
  Length,
  Matches,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { RegisterBody, UpdateSelfBody } from '../accounts/accounts.dto';
import { ChannelIdsBody, ChannelListQuery, CreateChannelBody } from '../channels/channels.dto';
import { UpdateOptionBody } from '../options/options.dto';
import { ManageUserBody, UserListQuery } from '../users/users.dto';
import { ApiError } from './api-error';
import { translate, type Lang, type MessageParams } from './i18n/messages';
import { invalidInput, validationPipe } from './validation.pipe';

class Item {
  @IsInt() id!: number;
}

class Sample {
  @IsNotEmpty() @IsString() title!: string;
  @IsEmail() email!: string;
  @IsUrl() site!: string;
  @Matches(/^[a-z]+$/) slug!: string;
  @MinLength(8) password!: string;
  @Length(2, 4) code!: string;
  @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
}

const valid = {
  title: 't',
  email: 'a@example.com',
  site: 'https://example.com',
  slug: 'abc',
  password: 'password123',
  code: 'abc',
  items: [{ id: 1 }],
};

/** The envelope message the exception filter would send for this input, in both languages. */
async function refusal(
  metatype: ArgumentMetadata['metatype'],
  value: unknown,
  type: ArgumentMetadata['type'] = 'body',
  pipe: PipeTransform = validationPipe,
): Promise<Record<Lang, string>> {
  const error = await pipe.transform(value, { type, metatype }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw new Error(`not refused: ${JSON.stringify(value)}`);
  return {
    'zh-CN': translate(error.code, error.params, 'zh-CN'),
    en: translate(error.code, error.params, 'en'),
  };
}

describe('validation pipe: messages in the request language', () => {
  it('a missing field is required, named by its console label', async () => {
    expect(await refusal(RegisterBody, { username: 'alice' })).toEqual({
      'zh-CN': '输入不合法：密码 不能为空',
      en: 'Invalid input: Password is required',
    });
    expect(await refusal(RegisterBody, {})).toEqual({
      'zh-CN': '输入不合法：用户名 不能为空；密码 不能为空',
      en: 'Invalid input: Username is required; Password is required',
    });
    expect((await refusal(UpdateOptionBody, { value: 'x' }))['zh-CN']).toBe(
      '输入不合法：字段 key 不能为空',
    );
  });

  it('null in a body field is the field left out: optional passes, required is required', async () => {
    const self = (await validationPipe.transform(
      { display_name: null, password: 'secret-pass' },
      { type: 'body', metatype: UpdateSelfBody },
    )) as UpdateSelfBody;
    expect(self).toBeInstanceOf(UpdateSelfBody);
    expect(self.display_name).toBeUndefined();
    expect(await refusal(RegisterBody, { username: 'alice', password: null })).toEqual({
      'zh-CN': '输入不合法：密码 不能为空',
      en: 'Invalid input: Password is required',
    });
    // Nested objects too; an item of an array is a value, refused as such.
    expect(
      (await refusal(CreateChannelBody, { channel: { name: null, type: 'x' } }))['zh-CN'],
    ).toBe('输入不合法：字段 channel.type 必须是整数');
    expect((await refusal(ChannelIdsBody, { ids: [1, null] }))['zh-CN']).toBe(
      '输入不合法：字段 ids 中的每一项 必须是整数',
    );
  });

  it('path parameters go on as sent: their own pipe reads "0x10" as no id, not as 16', async () => {
    for (const id of ['0x10', '1e3', ' 7'])
      expect(
        await validationPipe.transform(id, { type: 'param', metatype: Number, data: 'id' }),
      ).toBe(id);
  });

  it('an empty or unparsable optional query number is the parameter left out', async () => {
    for (const p of ['', 'NaN', 'abc', '1.5', '0x10']) {
      const query = (await validationPipe.transform(
        { p, page_size: '20' },
        { type: 'query', metatype: UserListQuery },
      )) as UserListQuery;
      expect({ p, parsed: query.p, size: query.page_size }).toEqual({
        p,
        parsed: undefined,
        size: 20,
      });
    }
    // Out of range, repeated, or the same text in a JSON body: still refused.
    expect((await refusal(UserListQuery, { p: '-1' }, 'query'))['zh-CN']).toBe(
      '输入不合法：字段 p 不能小于 0',
    );
    expect((await refusal(UserListQuery, { p: ['1', '2'] }, 'query'))['zh-CN']).toBe(
      '输入不合法：字段 p 必须是整数',
    );
    expect((await refusal(ManageUserBody, { id: 'abc', action: 'promote' }))['zh-CN']).toBe(
      '输入不合法：字段 id 必须是整数',
    );
  });

  it('a wrong kind of value reports only the kind, not the length or range', async () => {
    expect(await refusal(RegisterBody, { username: 'alice', password: 12345678 })).toEqual({
      'zh-CN': '输入不合法：密码 必须是字符串',
      en: 'Invalid input: Password must be a string',
    });
    expect(await refusal(ChannelListQuery, { id_sort: 'yes' }, 'query')).toEqual({
      'zh-CN': '输入不合法：字段 id_sort 必须是 true 或 false',
      en: 'Invalid input: id_sort must be true or false',
    });
    expect((await refusal(UserListQuery, { p: ['1'] }, 'query'))['zh-CN']).toBe(
      '输入不合法：字段 p 必须是整数',
    );
  });

  it('lengths, ranges and choices with their declared arguments', async () => {
    expect(await refusal(RegisterBody, { username: 'a'.repeat(101), password: 'p' })).toEqual({
      'zh-CN': '输入不合法：用户名 长度不能超过 100',
      en: 'Invalid input: Username must be at most 100 characters long',
    });
    expect(await refusal(UserListQuery, { p: '-1', page_size: '500' }, 'query')).toEqual({
      'zh-CN': '输入不合法：字段 p 不能小于 0；字段 page_size 不能大于 100',
      en: 'Invalid input: p must not be less than 0; page_size must not be greater than 100',
    });
    expect(await refusal(ManageUserBody, { id: 1, action: 'ban' })).toEqual({
      'zh-CN': '输入不合法：字段 action 只能是 promote, demote, enable, disable, delete 之一',
      en: 'Invalid input: action must be one of promote, demote, enable, disable, delete',
    });
  });

  it('rules on each item of an array', async () => {
    expect(await refusal(ChannelIdsBody, { ids: [1, 'x'] })).toEqual({
      'zh-CN': '输入不合法：字段 ids 中的每一项 必须是整数',
      en: 'Invalid input: Each value in ids must be an integer',
    });
    expect((await refusal(ChannelIdsBody, { ids: [0] }))['zh-CN']).toBe(
      '输入不合法：字段 ids 中的每一项 不能小于 1',
    );
    expect((await refusal(ChannelIdsBody, { ids: 'x' }))['zh-CN']).toBe(
      '输入不合法：字段 ids 必须是数组',
    );
  });

  it('nested objects and arrays are named by their JSON path', async () => {
    expect(await refusal(CreateChannelBody, { channel: { name: 5, priority: 1.5 } })).toEqual({
      'zh-CN': '输入不合法：字段 channel.name 必须是字符串；字段 channel.priority 必须是整数',
      en: 'Invalid input: channel.name must be a string; channel.priority must be an integer',
    });
    expect(await refusal(CreateChannelBody, { channel: 'x' })).toEqual({
      'zh-CN': '输入不合法：字段 channel 必须是对象',
      en: 'Invalid input: channel must be an object',
    });
    expect(await refusal(Sample, { ...valid, items: [{ id: 1 }, { id: 'x' }] })).toEqual({
      'zh-CN': '输入不合法：字段 items.1.id 必须是整数',
      en: 'Invalid input: items.1.id must be an integer',
    });
  });

  it('other constraints', async () => {
    expect(
      await refusal(Sample, {
        title: '',
        email: 'nope',
        site: 'not a url',
        slug: 'A!',
        password: 'short',
        code: 'abcdef',
        items: [],
      }),
    ).toEqual({
      'zh-CN':
        '输入不合法：字段 title 不能为空；邮箱地址 不是合法的邮箱地址；字段 site 不是合法的网址；' +
        '字段 slug 格式不正确；密码 长度不能少于 8；字段 code 长度必须在 2 到 4 之间',
      en:
        'Invalid input: title is required; Email address must be a valid email address; ' +
        'site must be a valid URL; slug has an invalid format; ' +
        'Password must be at least 8 characters long; code must be 2 to 4 characters long',
    });
  });

  it('a field that should not be there (forbidNonWhitelisted)', async () => {
    const strict = new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      validationError: { target: true },
      exceptionFactory: invalidInput,
    });
    expect(await refusal(Sample, { ...valid, admin: true }, 'body', strict)).toEqual({
      'zh-CN': '输入不合法：不允许的字段 admin',
      en: 'Invalid input: The field admin is not allowed',
    });
  });

  it('a body that is not an object', async () => {
    expect(await refusal(UpdateSelfBody, [1, 2])).toEqual({
      'zh-CN': '输入不合法：请求内容必须是 JSON 对象',
      en: 'Invalid input: The request must be a JSON object',
    });
  });

  it('valid input passes', async () => {
    await expect(
      validationPipe.transform(valid, { type: 'body', metatype: Sample }),
    ).resolves.toBeInstanceOf(Sample);
  });
});

describe('translate: params that are messages', () => {
  it('translates a message param and joins a list in the same language', () => {
    const params: MessageParams = {
      detail: [
        { code: 'validation.required', params: { field: { code: 'validation.field.password' } } },
        { code: 'validation.max', params: { field: 'n', max: 3 } },
      ],
    };
    expect(translate('common.invalid_input', params, 'zh-CN')).toBe(
      '输入不合法：密码 不能为空；n 不能大于 3',
    );
    expect(translate('common.invalid_input', params, 'en')).toBe(
      'Invalid input: Password is required; n must not be greater than 3',
    );
  });
});
