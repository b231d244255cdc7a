import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { FetchModelsRequest } from '@tollgate/contracts';

const INT_MAX = 2_147_483_647;
/**
 * Integers as JSON numbers or plain decimal strings (query strings); anything else (booleans,
 * hex, full-width digits, arrays) is left as is, so the @IsInt check refuses it.
 */
const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : value;
const StrictInt = () => Transform(toInt);

const toBool = ({ value }: { value: unknown }) =>
  value === true || value === 'true' || value === '1' || value === 1;

/** The channel fields of create and update (wire names; absent = keep / default). */
export class ChannelFieldsBody {
  @IsOptional() @StrictInt() @IsInt() @Min(0) @Max(1000) type?: number;
  @IsOptional() @IsString() @MaxLength(200) name?: string;
  /** One key, or several on separate lines (create). */
  @IsOptional() @IsString() @MaxLength(1_000_000) key?: string;
  @IsOptional() @IsString() @MaxLength(2000) base_url?: string | null;
  @IsOptional() @IsString() @MaxLength(10_000) other?: string | null;
  @IsOptional() @IsString() @MaxLength(200_000) models?: string;
  @IsOptional() @IsString() @MaxLength(10_000) group?: string;
  @IsOptional() @IsString() @MaxLength(100_000) model_mapping?: string | null;
  @IsOptional() @IsString() @MaxLength(10_000) status_code_mapping?: string | null;
  @IsOptional() @StrictInt() @IsInt() @Min(-INT_MAX) @Max(INT_MAX) priority?: number | null;
  @IsOptional() @StrictInt() @IsInt() @Min(-INT_MAX) @Max(INT_MAX) weight?: number | null;
  @IsOptional() @StrictInt() @IsIn([0, 1]) auto_ban?: number;
  @IsOptional() @IsString() @MaxLength(200) test_model?: string | null;
  @IsOptional() @IsString() @MaxLength(200) openai_organization?: string | null;
  @IsOptional() @StrictInt() @IsInt() @Min(0) @Max(INT_MAX) max_input_tokens?: number | null;
  @IsOptional() @IsString() @MaxLength(200) tag?: string | null;
  @IsOptional() @IsString() @MaxLength(100_000) setting?: string | null;
  @IsOptional() @StrictInt() @IsInt() @Min(0) @Max(10) status?: number;
}

/** POST /api/channel/: the fields themselves, or new-api's `{mode, channel}` wrapper. */
export class CreateChannelBody extends ChannelFieldsBody {
  @IsOptional() @IsIn(['single', 'batch', 'multi_to_single']) mode?: string;
  @IsOptional() @ValidateNested() @Type(() => ChannelFieldsBody) channel?: ChannelFieldsBody;
}

export class UpdateChannelBody extends ChannelFieldsBody {
  @StrictInt() @IsInt() @Min(1) @Max(INT_MAX) id!: number;
}

/** ?p= (0-based) &page_size= &id_sort= plus the search filters. */
export class ChannelListQuery {
  @IsOptional() @StrictInt() @IsInt() @Min(0) @Max(INT_MAX) p?: number;
  @IsOptional() @StrictInt() @IsInt() @Min(1) @Max(1000) page_size?: number;
  @IsOptional() @Transform(toBool) id_sort?: boolean;
  @IsOptional() @IsString() @MaxLength(200) keyword?: string;
  @IsOptional() @IsString() @MaxLength(64) group?: string;
  @IsOptional() @IsString() @MaxLength(200) model?: string;
}

export class ChannelTestQuery {
  @IsOptional() @IsString() @MaxLength(200) model?: string;
}

export class CopyChannelQuery {
  @IsOptional() @IsString() @MaxLength(50) suffix?: string;
  @IsOptional()
  @Transform(({ value }) => value === undefined || toBool({ value }))
  reset_balance?: boolean;
}

export class ChannelIdsBody {
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(INT_MAX, { each: true })
  ids!: number[];
}

export class FetchModelsBody implements FetchModelsRequest {
  @StrictInt() @IsInt() @Min(0) @Max(1000) type!: number;
  @IsOptional() @IsString() @MaxLength(100_000) key!: string;
  @IsOptional() @IsString() @MaxLength(2000) base_url?: string;
}
