import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from './api-error';

function describe(errors: readonly ValidationError[]): string {
  return errors
    .flatMap((e) => [...Object.values(e.constraints ?? {}), describe(e.children ?? [])])
    .filter((text) => text !== '')
    .join('; ');
}

/** class-validator on every body and query DTO; failures become the envelope's 输入不合法 message. */
export const validationPipe = new ValidationPipe({
  transform: true,
  whitelist: true,
  exceptionFactory: (errors) => new ApiError('common.invalid_input', { detail: describe(errors) }),
});
