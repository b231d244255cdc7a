import { IsIn, IsInt, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Optional } from '../shared/dto-fields';
import { DtoSchemas } from './dto-schemas';

class InnerBody {
  @IsString() label!: string;
}

class BaseBody {
  @IsString() @MaxLength(20) title!: string;
  @Optional() @IsInt() @Min(0) @Max(9) rank?: number;
}

class DerivedBody extends BaseBody {
  @Optional() @IsIn([1, 2]) state?: 1 | 2;
  @Optional() @ValidateNested() inner?: InnerBody;
}

class PageQuery {
  @Optional() @IsInt() @Min(1) p?: number;
  @IsString() keyword!: string;
}

class Undecorated {}

describe('DtoSchemas', () => {
  it('puts a class under its name with its own and inherited rules, and the classes it nests', () => {
    const dtos = new DtoSchemas();
    expect(dtos.schemaOf(DerivedBody)).toEqual({ $ref: '#/components/schemas/DerivedBody' });
    expect(dtos.components['DerivedBody']).toEqual({
      type: 'object',
      properties: {
        state: { type: 'number', enum: [1, 2] },
        inner: { $ref: '#/components/schemas/InnerBody' },
        title: { type: 'string', maxLength: 20 },
        rank: { type: 'integer', minimum: 0, maximum: 9 },
      },
      required: ['title'],
    });
    expect(dtos.components['InnerBody']).toEqual({
      type: 'object',
      properties: { label: { type: 'string' } },
      required: ['label'],
    });
  });

  it('turns a query class into query parameters', () => {
    expect(new DtoSchemas().queryParameters(PageQuery)).toEqual([
      { name: 'p', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
      { name: 'keyword', in: 'query', required: true, schema: { type: 'string' } },
    ]);
  });

  it('describes a class without rules as a plain object', () => {
    const dtos = new DtoSchemas();
    dtos.schemaOf(Undecorated);
    expect(dtos.components['Undecorated']).toEqual({ type: 'object' });
  });

  it('refuses two different classes of the same name', () => {
    const dtos = new DtoSchemas();
    dtos.schemaOf(PageQuery);
    const other = class PageQuery {};
    expect(() => dtos.schemaOf(other)).toThrow('two request DTO classes are named PageQuery');
  });
});
