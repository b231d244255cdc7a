/** GET /api/setup data (new-api's first-run wizard). */
export interface SetupStatusDto {
  /** Setup done: root's default password was replaced (same as /api/status `setup`). */
  status: boolean;
  /**
   * new-api: "a root account exists". Tollgate always has one (root / 123456 from the first start),
   * so this says whether its owner has set it up: false while the default password is in place,
   * which makes new-api's wizard ask for the administrator's username and password.
   */
  root_init: boolean;
  /** 'sqlite' for the embedded stores (new-api's wizard then warns about persistent volumes). */
  database_type: string;
}

/** POST /api/setup body, in new-api's field names. */
export interface SetupRequest {
  username?: string;
  password?: string;
  confirmPassword?: string;
  SelfUseModeEnabled?: boolean;
  DemoSiteEnabled?: boolean;
}
