import { Module } from '@nestjs/common';
import { UniqueClaims } from './unique-claims';
import { UserRegistrar } from './user-registrar';

/** Creating users and keeping their unique values: for sign-up, third-party sign-in, setup, admins. */
@Module({ providers: [UserRegistrar, UniqueClaims], exports: [UserRegistrar, UniqueClaims] })
export class UserRegistrationModule {}
