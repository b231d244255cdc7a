import { IsDefined, IsString, MaxLength } from 'class-validator';
import { Optional } from '../shared/dto-fields';

export class UpdateOptionBody {
  @IsString() @MaxLength(100) key!: string;
  /**
   * Strings on the wire; booleans and numbers from older clients are accepted and stringified.
   * Absent means '' for a text-like key (new-api's SMTP form sends such bodies); never null.
   */
  @Optional() @IsDefined() value?: string | number | boolean;
}
