import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../../shared/dto-fields';

/**
 * POST /api/user/createStripe, /api/user/stripe/pay and /api/user/stripe/amount: `amount` dollars
 * of quota (an integer; its floor and ceiling are checked with the options, in the envelope).
 */
export class StripeAmountBody {
  @IsInt() @Min(-Number.MAX_SAFE_INTEGER) @Max(Number.MAX_SAFE_INTEGER) amount!: number;
  /** new-api's wallet sends 'stripe'; anything else is refused by /api/user/stripe/pay. */
  @Optional() @IsString() @MaxLength(50) payment_method?: string;
}
