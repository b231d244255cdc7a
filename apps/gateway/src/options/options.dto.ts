import { IsDefined, IsString, MaxLength } from 'class-validator';

export class UpdateOptionBody {
  @IsString() @MaxLength(100) key!: string;
  /** Strings on the wire; booleans and numbers from older clients are accepted and stringified. */
  @IsDefined() value!: string | number | boolean;
}
