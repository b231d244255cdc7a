/**
 * one-api / new-api SQLite databases for import tests, built from the DDL those projects' gorm
 * AutoMigrate generates (the import notes, Appendix A.1 and A.2, verbatim: every table, column,
 * default and index). Rows are typed per project; a column left out takes its DDL default.
 *
 *   const file = oneApiDatabase(dir, { users: [{ id: 1, username: 'root', password: await bcryptOf('pw') }] });
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { bcrypt } from 'hash-wasm';

/** Appendix A.1 of the import notes: one-api@8df4a26 gorm AutoMigrate output (SQLite), verbatim. */
export const ONE_API_DDL = `
CREATE TABLE \`abilities\` (\`group\` varchar(32),\`model\` text,\`channel_id\` integer,\`enabled\` numeric,\`priority\` integer DEFAULT 0,PRIMARY KEY (\`group\`,\`model\`,\`channel_id\`));
CREATE INDEX \`idx_abilities_channel_id\` ON \`abilities\`(\`channel_id\`);
CREATE INDEX \`idx_abilities_priority\` ON \`abilities\`(\`priority\`);
CREATE TABLE \`channels\` (\`id\` integer,\`type\` integer DEFAULT 0,\`key\` text,\`status\` integer DEFAULT 1,\`name\` text,\`weight\` integer DEFAULT 0,\`created_time\` integer,\`test_time\` integer,\`response_time\` integer,\`base_url\` text DEFAULT "",\`other\` text,\`balance\` real,\`balance_updated_time\` integer,\`models\` text,\`group\` varchar(32) DEFAULT "default",\`used_quota\` integer DEFAULT 0,\`model_mapping\` varchar(1024) DEFAULT "",\`priority\` integer DEFAULT 0,\`config\` text,\`system_prompt\` text,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_channels_name\` ON \`channels\`(\`name\`);
CREATE TABLE \`logs\` (\`id\` integer,\`user_id\` integer,\`created_at\` integer,\`type\` integer,\`content\` text,\`username\` text DEFAULT "",\`token_name\` text DEFAULT "",\`model_name\` text DEFAULT "",\`quota\` integer DEFAULT 0,\`prompt_tokens\` integer DEFAULT 0,\`completion_tokens\` integer DEFAULT 0,\`channel_id\` integer,\`request_id\` text DEFAULT "",\`elapsed_time\` integer DEFAULT 0,\`is_stream\` numeric DEFAULT false,\`system_prompt_reset\` numeric DEFAULT false,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_created_at_type\` ON \`logs\`(\`created_at\`,\`type\`);
CREATE INDEX \`idx_logs_channel_id\` ON \`logs\`(\`channel_id\`);
CREATE INDEX \`idx_logs_model_name\` ON \`logs\`(\`model_name\`);
CREATE INDEX \`idx_logs_token_name\` ON \`logs\`(\`token_name\`);
CREATE INDEX \`idx_logs_user_id\` ON \`logs\`(\`user_id\`);
CREATE INDEX \`index_username_model_name\` ON \`logs\`(\`model_name\`,\`username\`);
CREATE TABLE \`options\` (\`key\` text,\`value\` text,PRIMARY KEY (\`key\`));
CREATE TABLE \`redemptions\` (\`id\` integer,\`user_id\` integer,\`key\` char(32),\`status\` integer DEFAULT 1,\`name\` text,\`quota\` integer DEFAULT 100,\`created_time\` integer,\`redeemed_time\` integer,PRIMARY KEY (\`id\`));
CREATE UNIQUE INDEX \`idx_redemptions_key\` ON \`redemptions\`(\`key\`);
CREATE INDEX \`idx_redemptions_name\` ON \`redemptions\`(\`name\`);
CREATE TABLE \`tokens\` (\`id\` integer,\`user_id\` integer,\`key\` char(48),\`status\` integer DEFAULT 1,\`name\` text,\`created_time\` integer,\`accessed_time\` integer,\`expired_time\` integer DEFAULT -1,\`remain_quota\` integer DEFAULT 0,\`unlimited_quota\` numeric DEFAULT false,\`used_quota\` integer DEFAULT 0,\`models\` text,\`subnet\` text DEFAULT "",PRIMARY KEY (\`id\`));
CREATE UNIQUE INDEX \`idx_tokens_key\` ON \`tokens\`(\`key\`);
CREATE INDEX \`idx_tokens_name\` ON \`tokens\`(\`name\`);
CREATE TABLE \`users\` (\`id\` integer,\`username\` text UNIQUE,\`password\` text NOT NULL,\`display_name\` text,\`role\` integer DEFAULT 1,\`status\` integer DEFAULT 1,\`email\` text,\`github_id\` text,\`wechat_id\` text,\`lark_id\` text,\`oidc_id\` text,\`access_token\` char(32),\`quota\` integer DEFAULT 0,\`used_quota\` integer DEFAULT 0,\`request_count\` integer DEFAULT 0,\`group\` varchar(32) DEFAULT "default",\`aff_code\` varchar(32),\`inviter_id\` integer,PRIMARY KEY (\`id\`));
CREATE UNIQUE INDEX \`idx_users_access_token\` ON \`users\`(\`access_token\`);
CREATE UNIQUE INDEX \`idx_users_aff_code\` ON \`users\`(\`aff_code\`);
CREATE INDEX \`idx_users_display_name\` ON \`users\`(\`display_name\`);
CREATE INDEX \`idx_users_email\` ON \`users\`(\`email\`);
CREATE INDEX \`idx_users_git_hub_id\` ON \`users\`(\`github_id\`);
CREATE INDEX \`idx_users_inviter_id\` ON \`users\`(\`inviter_id\`);
CREATE INDEX \`idx_users_lark_id\` ON \`users\`(\`lark_id\`);
CREATE INDEX \`idx_users_oidc_id\` ON \`users\`(\`oidc_id\`);
CREATE INDEX \`idx_users_username\` ON \`users\`(\`username\`);
CREATE INDEX \`idx_users_we_chat_id\` ON \`users\`(\`wechat_id\`);
`;

/** Appendix A.2 of the import notes: new-api@bc322dd gorm AutoMigrate output (SQLite), verbatim. */
export const NEW_API_DDL = `
CREATE TABLE \`abilities\` (\`group\` varchar(64),\`model\` varchar(255),\`channel_id\` integer,\`enabled\` numeric,\`priority\` integer DEFAULT 0,\`weight\` integer DEFAULT 0,\`tag\` text,PRIMARY KEY (\`group\`,\`model\`,\`channel_id\`));
CREATE INDEX \`idx_abilities_channel_id\` ON \`abilities\`(\`channel_id\`);
CREATE INDEX \`idx_abilities_priority\` ON \`abilities\`(\`priority\`);
CREATE INDEX \`idx_abilities_tag\` ON \`abilities\`(\`tag\`);
CREATE INDEX \`idx_abilities_weight\` ON \`abilities\`(\`weight\`);
CREATE TABLE \`channels\` (\`id\` integer,\`type\` integer DEFAULT 0,\`key\` text NOT NULL,\`open_ai_organization\` text,\`test_model\` text,\`status\` integer DEFAULT 1,\`name\` text,\`weight\` integer DEFAULT 0,\`created_time\` integer,\`test_time\` integer,\`response_time\` integer,\`base_url\` text DEFAULT "",\`other\` text,\`balance\` real,\`balance_updated_time\` integer,\`models\` text,\`group\` varchar(64) DEFAULT "default",\`used_quota\` integer DEFAULT 0,\`model_mapping\` text,\`status_code_mapping\` varchar(1024) DEFAULT "",\`priority\` integer DEFAULT 0,\`auto_ban\` integer DEFAULT 1,\`other_info\` text,\`tag\` text,\`setting\` text,\`param_override\` text,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_channels_name\` ON \`channels\`(\`name\`);
CREATE INDEX \`idx_channels_tag\` ON \`channels\`(\`tag\`);
CREATE TABLE \`logs\` (\`id\` integer,\`user_id\` integer,\`created_at\` integer,\`type\` integer,\`content\` text,\`username\` text DEFAULT "",\`token_name\` text DEFAULT "",\`model_name\` text DEFAULT "",\`quota\` integer DEFAULT 0,\`prompt_tokens\` integer DEFAULT 0,\`completion_tokens\` integer DEFAULT 0,\`use_time\` integer DEFAULT 0,\`is_stream\` numeric DEFAULT false,\`channel_id\` integer,\`channel_name\` text,\`token_id\` integer DEFAULT 0,\`group\` text,\`other\` text,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_created_at_id\` ON \`logs\`(\`id\`,\`created_at\`);
CREATE INDEX \`idx_created_at_type\` ON \`logs\`(\`created_at\`,\`type\`);
CREATE INDEX \`idx_logs_channel_id\` ON \`logs\`(\`channel_id\`);
CREATE INDEX \`idx_logs_group\` ON \`logs\`(\`group\`);
CREATE INDEX \`idx_logs_model_name\` ON \`logs\`(\`model_name\`);
CREATE INDEX \`idx_logs_token_id\` ON \`logs\`(\`token_id\`);
CREATE INDEX \`idx_logs_token_name\` ON \`logs\`(\`token_name\`);
CREATE INDEX \`idx_logs_user_id\` ON \`logs\`(\`user_id\`);
CREATE INDEX \`idx_logs_username\` ON \`logs\`(\`username\`);
CREATE INDEX \`index_username_model_name\` ON \`logs\`(\`model_name\`,\`username\`);
CREATE TABLE \`midjourneys\` (\`id\` integer,\`code\` integer,\`user_id\` integer,\`action\` varchar(40),\`mj_id\` text,\`prompt\` text,\`prompt_en\` text,\`description\` text,\`state\` text,\`submit_time\` integer,\`start_time\` integer,\`finish_time\` integer,\`image_url\` text,\`status\` varchar(20),\`progress\` varchar(30),\`fail_reason\` text,\`channel_id\` integer,\`quota\` integer,\`buttons\` text,\`properties\` text,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_midjourneys_action\` ON \`midjourneys\`(\`action\`);
CREATE INDEX \`idx_midjourneys_finish_time\` ON \`midjourneys\`(\`finish_time\`);
CREATE INDEX \`idx_midjourneys_mj_id\` ON \`midjourneys\`(\`mj_id\`);
CREATE INDEX \`idx_midjourneys_progress\` ON \`midjourneys\`(\`progress\`);
CREATE INDEX \`idx_midjourneys_start_time\` ON \`midjourneys\`(\`start_time\`);
CREATE INDEX \`idx_midjourneys_status\` ON \`midjourneys\`(\`status\`);
CREATE INDEX \`idx_midjourneys_submit_time\` ON \`midjourneys\`(\`submit_time\`);
CREATE INDEX \`idx_midjourneys_user_id\` ON \`midjourneys\`(\`user_id\`);
CREATE TABLE \`options\` (\`key\` text,\`value\` text,PRIMARY KEY (\`key\`));
CREATE TABLE \`quota_data\` (\`id\` integer,\`user_id\` integer,\`username\` text DEFAULT "",\`model_name\` text DEFAULT "",\`created_at\` integer,\`token_used\` integer DEFAULT 0,\`count\` integer DEFAULT 0,\`quota\` integer DEFAULT 0,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_qdt_created_at\` ON \`quota_data\`(\`created_at\`);
CREATE INDEX \`idx_qdt_model_user_name\` ON \`quota_data\`(\`model_name\`,\`username\`);
CREATE INDEX \`idx_quota_data_user_id\` ON \`quota_data\`(\`user_id\`);
CREATE TABLE \`redemptions\` (\`id\` integer,\`user_id\` integer,\`key\` char(32),\`status\` integer DEFAULT 1,\`name\` text,\`quota\` integer DEFAULT 100,\`created_time\` integer,\`redeemed_time\` integer,\`used_user_id\` integer,\`deleted_at\` datetime,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_redemptions_deleted_at\` ON \`redemptions\`(\`deleted_at\`);
CREATE UNIQUE INDEX \`idx_redemptions_key\` ON \`redemptions\`(\`key\`);
CREATE INDEX \`idx_redemptions_name\` ON \`redemptions\`(\`name\`);
CREATE TABLE \`setups\` (\`id\` integer,\`version\` varchar(50) NOT NULL,\`initialized_at\` bigint NOT NULL,PRIMARY KEY (\`id\`));
CREATE TABLE \`tasks\` (\`id\` integer,\`created_at\` integer,\`updated_at\` integer,\`task_id\` varchar(50),\`platform\` varchar(30),\`user_id\` integer,\`channel_id\` integer,\`quota\` integer,\`action\` varchar(40),\`status\` varchar(20),\`fail_reason\` text,\`submit_time\` integer,\`start_time\` integer,\`finish_time\` integer,\`progress\` varchar(20),\`properties\` json,\`data\` json,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_tasks_action\` ON \`tasks\`(\`action\`);
CREATE INDEX \`idx_tasks_channel_id\` ON \`tasks\`(\`channel_id\`);
CREATE INDEX \`idx_tasks_created_at\` ON \`tasks\`(\`created_at\`);
CREATE INDEX \`idx_tasks_finish_time\` ON \`tasks\`(\`finish_time\`);
CREATE INDEX \`idx_tasks_platform\` ON \`tasks\`(\`platform\`);
CREATE INDEX \`idx_tasks_progress\` ON \`tasks\`(\`progress\`);
CREATE INDEX \`idx_tasks_start_time\` ON \`tasks\`(\`start_time\`);
CREATE INDEX \`idx_tasks_status\` ON \`tasks\`(\`status\`);
CREATE INDEX \`idx_tasks_submit_time\` ON \`tasks\`(\`submit_time\`);
CREATE INDEX \`idx_tasks_task_id\` ON \`tasks\`(\`task_id\`);
CREATE INDEX \`idx_tasks_user_id\` ON \`tasks\`(\`user_id\`);
CREATE TABLE \`tokens\` (\`id\` integer,\`user_id\` integer,\`key\` char(48),\`status\` integer DEFAULT 1,\`name\` text,\`created_time\` integer,\`accessed_time\` integer,\`expired_time\` integer DEFAULT -1,\`remain_quota\` integer DEFAULT 0,\`unlimited_quota\` numeric DEFAULT false,\`model_limits_enabled\` numeric DEFAULT false,\`model_limits\` varchar(1024) DEFAULT "",\`allow_ips\` text DEFAULT "",\`used_quota\` integer DEFAULT 0,\`group\` text DEFAULT "",\`deleted_at\` datetime,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_tokens_deleted_at\` ON \`tokens\`(\`deleted_at\`);
CREATE UNIQUE INDEX \`idx_tokens_key\` ON \`tokens\`(\`key\`);
CREATE INDEX \`idx_tokens_name\` ON \`tokens\`(\`name\`);
CREATE INDEX \`idx_tokens_user_id\` ON \`tokens\`(\`user_id\`);
CREATE TABLE \`top_ups\` (\`id\` integer,\`user_id\` integer,\`amount\` integer,\`money\` real,\`trade_no\` text,\`create_time\` integer,\`status\` text,PRIMARY KEY (\`id\`));
CREATE INDEX \`idx_top_ups_user_id\` ON \`top_ups\`(\`user_id\`);
CREATE TABLE \`users\` (\`id\` integer,\`username\` text UNIQUE,\`password\` text NOT NULL,\`display_name\` text,\`role\` integer DEFAULT 1,\`status\` integer DEFAULT 1,\`email\` text,\`github_id\` text,\`oidc_id\` text,\`wechat_id\` text,\`telegram_id\` text,\`access_token\` char(32),\`quota\` integer DEFAULT 0,\`used_quota\` integer DEFAULT 0,\`request_count\` integer DEFAULT 0,\`group\` varchar(64) DEFAULT "default",\`aff_code\` varchar(32),\`aff_count\` integer DEFAULT 0,\`aff_quota\` integer DEFAULT 0,\`aff_history\` integer DEFAULT 0,\`inviter_id\` integer,\`deleted_at\` datetime,\`linux_do_id\` text,\`setting\` text,PRIMARY KEY (\`id\`));
CREATE UNIQUE INDEX \`idx_users_access_token\` ON \`users\`(\`access_token\`);
CREATE UNIQUE INDEX \`idx_users_aff_code\` ON \`users\`(\`aff_code\`);
CREATE INDEX \`idx_users_deleted_at\` ON \`users\`(\`deleted_at\`);
CREATE INDEX \`idx_users_display_name\` ON \`users\`(\`display_name\`);
CREATE INDEX \`idx_users_email\` ON \`users\`(\`email\`);
CREATE INDEX \`idx_users_git_hub_id\` ON \`users\`(\`github_id\`);
CREATE INDEX \`idx_users_inviter_id\` ON \`users\`(\`inviter_id\`);
CREATE INDEX \`idx_users_linux_do_id\` ON \`users\`(\`linux_do_id\`);
CREATE INDEX \`idx_users_oidc_id\` ON \`users\`(\`oidc_id\`);
CREATE INDEX \`idx_users_telegram_id\` ON \`users\`(\`telegram_id\`);
CREATE INDEX \`idx_users_username\` ON \`users\`(\`username\`);
CREATE INDEX \`idx_users_we_chat_id\` ON \`users\`(\`wechat_id\`);
`;

type SqlValue = string | number | bigint | boolean | null;

interface CommonUserRow {
  id: number;
  username: string;
  /** bcrypt as the source stores it (see bcryptOf); NOT NULL in the DDL, '' when left out. */
  password?: string;
  display_name?: string | null;
  role?: number;
  /** 1 enabled, 2 disabled (one-api: 3 deleted). */
  status?: number;
  email?: string | null;
  github_id?: string | null;
  wechat_id?: string | null;
  oidc_id?: string | null;
  access_token?: string | null;
  quota?: number;
  used_quota?: number;
  request_count?: number;
  group?: string;
  aff_code?: string | null;
  inviter_id?: number | null;
}
export interface OneApiUserRow extends CommonUserRow {
  lark_id?: string | null;
}
export interface NewApiUserRow extends CommonUserRow {
  telegram_id?: string | null;
  aff_count?: number;
  aff_quota?: number;
  aff_history?: number;
  /** Soft delete, e.g. '2025-01-01 00:00:00+00:00'. */
  deleted_at?: string | null;
  linux_do_id?: string | null;
  /** JSON text (notification settings). */
  setting?: string | null;
}

interface CommonTokenRow {
  id: number;
  user_id: number;
  /** 48 characters, without `sk-` (see key48). */
  key: string;
  /** 1 enabled, 2 disabled, 3 expired, 4 exhausted. */
  status?: number;
  name?: string | null;
  created_time?: number;
  accessed_time?: number;
  /** Unix seconds, -1 never. */
  expired_time?: number;
  remain_quota?: number;
  unlimited_quota?: boolean | number;
  used_quota?: number;
}
export interface OneApiTokenRow extends CommonTokenRow {
  /** Comma list of models ('' or null: every model). */
  models?: string | null;
  /** Comma-separated CIDRs. */
  subnet?: string;
}
export interface NewApiTokenRow extends CommonTokenRow {
  model_limits_enabled?: boolean | number;
  /** Comma list. */
  model_limits?: string;
  /** One IP / CIDR a line. */
  allow_ips?: string;
  group?: string;
  deleted_at?: string | null;
}

interface CommonRedemptionRow {
  id: number;
  user_id?: number;
  /** 32 characters. */
  key: string;
  /** 1 enabled, 2 disabled, 3 used. */
  status?: number;
  name?: string | null;
  quota?: number;
  created_time?: number;
  redeemed_time?: number;
}
export type OneApiRedemptionRow = CommonRedemptionRow;
export interface NewApiRedemptionRow extends CommonRedemptionRow {
  used_user_id?: number | null;
  deleted_at?: string | null;
}

/** A channels row: the columns differ much between the projects (see the DDL). */
export type ChannelRow = { id: number; key?: string } & Record<string, SqlValue | undefined>;
export interface OptionRow {
  key: string;
  value: string;
}
/** A row of a table whose columns the tests name as the DDL spells them (logs, tasks, top-ups). */
export type TableRow = { id: number } & Record<string, SqlValue | undefined>;

export interface OneApiRows {
  users?: OneApiUserRow[];
  tokens?: OneApiTokenRow[];
  channels?: ChannelRow[];
  redemptions?: OneApiRedemptionRow[];
  options?: OptionRow[];
  logs?: TableRow[];
}
export interface NewApiRows {
  users?: NewApiUserRow[];
  tokens?: NewApiTokenRow[];
  channels?: ChannelRow[];
  redemptions?: NewApiRedemptionRow[];
  options?: OptionRow[];
  logs?: TableRow[];
  midjourneys?: TableRow[];
  tasks?: TableRow[];
  top_ups?: TableRow[];
}

/** A one-api database at `<dir>/<file>` (default one-api.db) holding `rows`; returns its path. */
export function oneApiDatabase(dir: string, rows: OneApiRows = {}, file = 'one-api.db'): string {
  return buildDatabase(join(dir, file), ONE_API_DDL, rows);
}

/** A new-api database at `<dir>/<file>` (default new-api.db) holding `rows`; returns its path. */
export function newApiDatabase(dir: string, rows: NewApiRows = {}, file = 'new-api.db'): string {
  return buildDatabase(join(dir, file), NEW_API_DDL, rows);
}

/** A bcrypt hash of `password` as Go's bcrypt writes it ($2a$, low cost: tests stay fast). */
export function bcryptOf(password: string): Promise<string> {
  return bcrypt({ password, salt: Buffer.alloc(16, 3), costFactor: 4, outputType: 'encoded' });
}

/** A 48-character token key (letters and digits) from a short seed, e.g. key48('A1b2C3'). */
export const key48 = (seed: string): string =>
  seed.repeat(Math.ceil(48 / seed.length)).slice(0, 48);

function buildDatabase(path: string, ddl: string, rows: OneApiRows | NewApiRows): string {
  const db = new Database(path);
  try {
    db.exec(ddl);
    db.transaction(() => {
      for (const [table, list] of Object.entries(rows) as Array<[string, object[] | undefined]>)
        for (const row of list ?? [])
          insert(db, table, row as Record<string, SqlValue | undefined>);
    })();
  } finally {
    db.close();
  }
  return path;
}

function insert(db: Database.Database, table: string, row: Record<string, SqlValue | undefined>) {
  const entries = Object.entries(row).filter(([, v]) => v !== undefined);
  // users.password is NOT NULL without a default.
  if (table === 'users' && !entries.some(([c]) => c === 'password')) entries.push(['password', '']);
  const columns = entries.map(([c]) => `\`${c}\``).join(', ');
  const values = entries.map(([, v]) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
  db.prepare(
    `INSERT INTO \`${table}\` (${columns}) VALUES (${entries.map(() => '?').join(', ')})`,
  ).run(...values);
}
