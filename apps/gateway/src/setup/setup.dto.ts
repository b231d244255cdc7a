import { IsBoolean, IsString, MaxLength } from 'class-validator';
import type { SetupRequest } from '@tollgate/contracts';
import { Optional } from '../shared/dto-fields';

/** POST /api/setup as new-api's wizard sends it (its field names, confirmPassword included). */
export class SetupBody implements SetupRequest {
  @Optional() @IsString() @MaxLength(100) username?: string;
  @Optional() @IsString() @MaxLength(100) password?: string;
  @Optional() @IsString() @MaxLength(100) confirmPassword?: string;
  @Optional() @IsBoolean() SelfUseModeEnabled?: boolean;
  @Optional() @IsBoolean() DemoSiteEnabled?: boolean;
}
