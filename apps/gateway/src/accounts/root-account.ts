/** The first start creates root / 123456 (role 100), like one-api and new-api; login then warns about it. */
export const ROOT_USERNAME = 'root';
export const DEFAULT_ROOT_PASSWORD = '123456';
