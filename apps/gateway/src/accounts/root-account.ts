/** The first start creates root / 123456 (role 100), like one-api and new-api; login then warns about it. */
export const ROOT_USERNAME = 'root';
export const DEFAULT_ROOT_PASSWORD = '123456';
/**
 * Root's balance on the first start: 100 000 000 quota units ($200 at 500 000 a dollar), as new-api
 * gives it, so the first relayed call works before anyone tops up. A QuotaGranted like any other.
 */
export const ROOT_STARTING_QUOTA = 100_000_000;
