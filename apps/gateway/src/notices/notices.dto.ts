import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { Optional, ToInt } from '../shared/dto-fields';

const MAX_INT = Number.MAX_SAFE_INTEGER;

/** new-api's later `PUT /api/user/setting` (the user's notification settings). */
export class UserSettingBody {
  @IsIn(['email', 'webhook']) notify_type!: 'email' | 'webhook';
  /** Quota units; absent: the QuotaRemindThreshold option. */
  @Optional() @IsInt() @Min(0) @Max(MAX_INT) quota_warning_threshold?: number;
  @Optional() @IsString() @MaxLength(500) webhook_url?: string;
  /** Write-only: absent keeps the secret saved; '' removes it. */
  @Optional() @IsString() @MaxLength(200) webhook_secret?: string;
  @Optional()
  @IsString()
  @MaxLength(254)
  @ValidateIf((_o, v) => v !== '')
  @IsEmail()
  notification_email?: string;
  /** Administrators only: receive channel alerts. */
  @Optional() @IsBoolean() accept_admin_alerts?: boolean;
}

export class NoticeListQuery {
  @Optional() @ToInt() @IsInt() @Min(0) @Max(MAX_INT) p?: number;
  @Optional() @ToInt() @IsInt() @Min(1) @Max(100) page_size?: number;
}
