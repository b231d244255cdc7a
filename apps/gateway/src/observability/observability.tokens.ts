/** The request tracker (records, X-Request-Id, observers). */
export const REQUEST_TRACKER = Symbol('REQUEST_TRACKER');
/** The process's pino logger (JSON lines; the Nest logger writes through it too). */
export const APP_LOG = Symbol('APP_LOG');
