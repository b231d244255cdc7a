/** Every console API answer: business failures are HTTP 200 with success false. */
export interface ApiEnvelope<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
}

/** Paged list shape for users, redemptions and logs (1-based `page`). */
export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** Header every console call carries; must equal the session's user id. */
export const USER_ID_HEADER = 'New-Api-User';

/**
 * Set on an answer that ended the caller's session without a 401 (a banned user's session answers
 * 200 `用户已被封禁`, as new-api does): the console shows the message and goes to the login page.
 */
export const SESSION_ENDED_HEADER = 'Tollgate-Session-Ended';
