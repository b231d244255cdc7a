import { IsString, MaxLength } from 'class-validator';
import { EMAIL_MAX_LENGTH } from '@tollgate/domain';

/** `?email=` of the verification and reset mails (`turnstile` is read by TurnstileGuard). */
export class EmailQuery {
  @IsString() @MaxLength(EMAIL_MAX_LENGTH) email!: string;
}

/** `POST /api/user/reset`: the two values of the mailed link. */
export class ResetPasswordBody {
  @IsString() @MaxLength(EMAIL_MAX_LENGTH) email!: string;
  @IsString() @MaxLength(100) token!: string;
}

/** `GET /api/oauth/email/bind?email=&code=` */
export class EmailBindQuery {
  @IsString() @MaxLength(EMAIL_MAX_LENGTH) email!: string;
  @IsString() @MaxLength(32) code!: string;
}
