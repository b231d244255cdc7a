/** The injection token of the AppConfig read at start-up (ConfigModule provides it). */
export const APP_CONFIG = Symbol('APP_CONFIG');
