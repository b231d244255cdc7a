import type { ReadStore } from '@tollgate/read-store';
import { ApiError } from '../shared/api-error';
import { USERS, type UserDocument } from './user.document';

/** A user's read-model row by id, or the `user.not_found` refusal. */
export async function userDocument(readStore: ReadStore, id: number): Promise<UserDocument> {
  const user = await readStore.collection<UserDocument>(USERS).get(String(id));
  if (!user) throw new ApiError('user.not_found');
  return user;
}
