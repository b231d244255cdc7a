import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsBoolean,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { ChannelIdsRequest, FetchModelsRequest } from '@tollgate/contracts';
import { Optional, ToBool, ToInt } from '../shared/dto-fields';

const INT_MAX = 2_147_483_647;

/**
 * The channel fields of create and update (wire names; absent = keep / default; a null is absent,
 * as in new-api, whose update skips nil fields; '' clears a text field).
 */
export class ChannelFieldsBody {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(1000) type?: number;
  @Optional() @IsString() @MaxLength(200) name?: string;
  /** One key, or several on separate lines (create). */
  @Optional() @IsString() @MaxLength(1_000_000) key?: string;
  @Optional() @IsString() @MaxLength(2000) base_url?: string;
  @Optional() @IsString() @MaxLength(10_000) other?: string;
  @Optional() @IsString() @MaxLength(200_000) models?: string;
  @Optional() @IsString() @MaxLength(10_000) group?: string;
  @Optional() @IsString() @MaxLength(100_000) model_mapping?: string;
  @Optional() @IsString() @MaxLength(10_000) status_code_mapping?: string;
  @Optional() @ToInt() @IsInt() @Min(-INT_MAX) @Max(INT_MAX) priority?: number;
  @Optional() @ToInt() @IsInt() @Min(-INT_MAX) @Max(INT_MAX) weight?: number;
  @Optional() @ToInt() @IsIn([0, 1]) auto_ban?: number;
  @Optional() @IsString() @MaxLength(200) test_model?: string;
  @Optional() @IsString() @MaxLength(200) openai_organization?: string;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(INT_MAX) max_input_tokens?: number;
  @Optional() @IsString() @MaxLength(200) tag?: string;
  @Optional() @IsString() @MaxLength(100_000) setting?: string;
  /** Its own bound and shape are the channel rules' (with their message, not the generic one). */
  @Optional() @IsString() @MaxLength(100_000) param_override?: string;
  @Optional() @ToInt() @IsInt() @Min(0) @Max(10) status?: number;
}

/** POST /api/channel/: the fields themselves, or new-api's `{mode, channel}` wrapper. */
export class CreateChannelBody extends ChannelFieldsBody {
  @Optional() @IsIn(['single', 'batch', 'multi_to_single']) mode?: string;
  @Optional() @ValidateNested() @Type(() => ChannelFieldsBody) channel?: ChannelFieldsBody;
}

export class UpdateChannelBody extends ChannelFieldsBody {
  @ToInt() @IsInt() @Min(1) @Max(INT_MAX) id!: number;
}

/** ?p= (0-based) &page_size= &id_sort= plus the search filters. */
export class ChannelListQuery {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(INT_MAX) p?: number;
  @Optional() @ToInt() @IsInt() @Min(1) @Max(1000) page_size?: number;
  @Optional() @ToBool() @IsBoolean() id_sort?: boolean;
  @Optional() @IsString() @MaxLength(200) keyword?: string;
  @Optional() @IsString() @MaxLength(64) group?: string;
  @Optional() @IsString() @MaxLength(200) model?: string;
}

export class ChannelTestQuery {
  @Optional() @IsString() @MaxLength(200) model?: string;
}

export class CopyChannelQuery {
  @Optional() @IsString() @MaxLength(50) suffix?: string;
  @Optional() @ToBool() @IsBoolean() reset_balance?: boolean;
}

export class ChannelIdsBody implements ChannelIdsRequest {
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(INT_MAX, { each: true })
  ids!: number[];
}

export class FetchModelsBody implements FetchModelsRequest {
  @ToInt() @IsInt() @Min(0) @Max(1000) type!: number;
  @Optional() @IsString() @MaxLength(100_000) key!: string;
  @Optional() @IsString() @MaxLength(2000) base_url?: string;
}
