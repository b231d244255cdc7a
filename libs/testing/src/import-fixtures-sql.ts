/**
 * The one-api / new-api fixtures (import-fixtures.ts, SQLite) in a real MySQL (MariaDB) or
 * PostgreSQL database, for import tests against those engines: the schema each project's gorm
 * creates there (MySQL: the import notes' Appendix A.3 / A.4 verbatim; PostgreSQL: derived by the
 * notes' rules 1.2, see below), then every row of the SQLite fixture copied over.
 *
 *   const file = oneApiDatabase(dir, rows);
 *   await mysql.createDatabase('oneapi');
 *   await copyFixture(file, { kind: 'mysql', url: mysql.url('oneapi') });
 */
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';

/** Appendix A.3 of the import notes: new-api@bc322dd gorm DDL (MySQL), verbatim. */
export const NEW_API_MYSQL_DDL = `
CREATE TABLE \`channels\` (\`id\` bigint AUTO_INCREMENT,\`type\` bigint DEFAULT 0,\`key\` longtext NOT NULL,\`open_ai_organization\` longtext,\`test_model\` longtext,\`status\` bigint DEFAULT 1,\`name\` varchar(191),\`weight\` bigint unsigned DEFAULT 0,\`created_time\` bigint,\`test_time\` bigint,\`response_time\` bigint,\`base_url\` varchar(191) DEFAULT '',\`other\` longtext,\`balance\` double,\`balance_updated_time\` bigint,\`models\` longtext,\`group\` varchar(64) DEFAULT 'default',\`used_quota\` bigint DEFAULT 0,\`model_mapping\` text,\`status_code_mapping\` varchar(1024) DEFAULT '',\`priority\` bigint DEFAULT 0,\`auto_ban\` bigint DEFAULT 1,\`other_info\` longtext,\`tag\` varchar(191),\`setting\` text,\`param_override\` text,PRIMARY KEY (\`id\`),INDEX \`idx_channels_tag\` (\`tag\`),INDEX \`idx_channels_name\` (\`name\`));
CREATE TABLE \`tokens\` (\`id\` bigint AUTO_INCREMENT,\`user_id\` bigint,\`key\` char(48),\`status\` bigint DEFAULT 1,\`name\` varchar(191),\`created_time\` bigint,\`accessed_time\` bigint,\`expired_time\` bigint DEFAULT -1,\`remain_quota\` bigint DEFAULT 0,\`unlimited_quota\` boolean DEFAULT false,\`model_limits_enabled\` boolean DEFAULT false,\`model_limits\` varchar(1024) DEFAULT '',\`allow_ips\` varchar(191) DEFAULT '',\`used_quota\` bigint DEFAULT 0,\`group\` varchar(191) DEFAULT '',\`deleted_at\` datetime(3) NULL,PRIMARY KEY (\`id\`),INDEX \`idx_tokens_user_id\` (\`user_id\`),UNIQUE INDEX \`idx_tokens_key\` (\`key\`),INDEX \`idx_tokens_name\` (\`name\`),INDEX \`idx_tokens_deleted_at\` (\`deleted_at\`));
CREATE TABLE \`users\` (\`id\` bigint AUTO_INCREMENT,\`username\` varchar(191) UNIQUE,\`password\` longtext NOT NULL,\`display_name\` varchar(191),\`role\` bigint DEFAULT 1,\`status\` bigint DEFAULT 1,\`email\` varchar(191),\`github_id\` varchar(191),\`oidc_id\` varchar(191),\`wechat_id\` varchar(191),\`telegram_id\` varchar(191),\`access_token\` char(32),\`quota\` bigint DEFAULT 0,\`used_quota\` bigint DEFAULT 0,\`request_count\` bigint DEFAULT 0,\`group\` varchar(64) DEFAULT 'default',\`aff_code\` varchar(32),\`aff_count\` bigint DEFAULT 0,\`aff_quota\` bigint DEFAULT 0,\`aff_history\` bigint DEFAULT 0,\`inviter_id\` bigint,\`deleted_at\` datetime(3) NULL,\`linux_do_id\` varchar(191),\`setting\` text,PRIMARY KEY (\`id\`),INDEX \`idx_users_username\` (\`username\`),INDEX \`idx_users_email\` (\`email\`),INDEX \`idx_users_git_hub_id\` (\`github_id\`),INDEX \`idx_users_we_chat_id\` (\`wechat_id\`),INDEX \`idx_users_telegram_id\` (\`telegram_id\`),UNIQUE INDEX \`idx_users_access_token\` (\`access_token\`),INDEX \`idx_users_deleted_at\` (\`deleted_at\`),INDEX \`idx_users_linux_do_id\` (\`linux_do_id\`),INDEX \`idx_users_display_name\` (\`display_name\`),INDEX \`idx_users_oidc_id\` (\`oidc_id\`),UNIQUE INDEX \`idx_users_aff_code\` (\`aff_code\`),INDEX \`idx_users_inviter_id\` (\`inviter_id\`));
CREATE TABLE \`options\` (\`key\` varchar(191),\`value\` longtext,PRIMARY KEY (\`key\`));
CREATE TABLE \`redemptions\` (\`id\` bigint AUTO_INCREMENT,\`user_id\` bigint,\`key\` char(32),\`status\` bigint DEFAULT 1,\`name\` varchar(191),\`quota\` bigint DEFAULT 100,\`created_time\` bigint,\`redeemed_time\` bigint,\`used_user_id\` bigint,\`deleted_at\` datetime(3) NULL,PRIMARY KEY (\`id\`),INDEX \`idx_redemptions_name\` (\`name\`),INDEX \`idx_redemptions_deleted_at\` (\`deleted_at\`),UNIQUE INDEX \`idx_redemptions_key\` (\`key\`));
CREATE TABLE \`abilities\` (\`group\` varchar(64),\`model\` varchar(255),\`channel_id\` bigint,\`enabled\` boolean,\`priority\` bigint DEFAULT 0,\`weight\` bigint unsigned DEFAULT 0,\`tag\` varchar(191),PRIMARY KEY (\`group\`,\`model\`,\`channel_id\`),INDEX \`idx_abilities_channel_id\` (\`channel_id\`),INDEX \`idx_abilities_priority\` (\`priority\`),INDEX \`idx_abilities_weight\` (\`weight\`),INDEX \`idx_abilities_tag\` (\`tag\`));
CREATE TABLE \`logs\` (\`id\` bigint AUTO_INCREMENT,\`user_id\` bigint,\`created_at\` bigint,\`type\` bigint,\`content\` longtext,\`username\` varchar(191) DEFAULT '',\`token_name\` varchar(191) DEFAULT '',\`model_name\` varchar(191) DEFAULT '',\`quota\` bigint DEFAULT 0,\`prompt_tokens\` bigint DEFAULT 0,\`completion_tokens\` bigint DEFAULT 0,\`use_time\` bigint DEFAULT 0,\`is_stream\` boolean DEFAULT false,\`channel_id\` bigint,\`channel_name\` longtext,\`token_id\` bigint DEFAULT 0,\`group\` varchar(191),\`other\` longtext,PRIMARY KEY (\`id\`),INDEX \`idx_logs_group\` (\`group\`),INDEX \`idx_created_at_id\` (\`id\`,\`created_at\`),INDEX \`idx_logs_user_id\` (\`user_id\`),INDEX \`idx_created_at_type\` (\`created_at\`,\`type\`),INDEX \`idx_logs_model_name\` (\`model_name\`),INDEX \`idx_logs_channel_id\` (\`channel_id\`),INDEX \`idx_logs_token_id\` (\`token_id\`),INDEX \`idx_logs_username\` (\`username\`),INDEX \`index_username_model_name\` (\`model_name\`,\`username\`),INDEX \`idx_logs_token_name\` (\`token_name\`));
CREATE TABLE \`midjourneys\` (\`id\` bigint AUTO_INCREMENT,\`code\` bigint,\`user_id\` bigint,\`action\` varchar(40),\`mj_id\` varchar(191),\`prompt\` longtext,\`prompt_en\` longtext,\`description\` longtext,\`state\` longtext,\`submit_time\` bigint,\`start_time\` bigint,\`finish_time\` bigint,\`image_url\` longtext,\`status\` varchar(20),\`progress\` varchar(30),\`fail_reason\` longtext,\`channel_id\` bigint,\`quota\` bigint,\`buttons\` longtext,\`properties\` longtext,PRIMARY KEY (\`id\`),INDEX \`idx_midjourneys_progress\` (\`progress\`),INDEX \`idx_midjourneys_user_id\` (\`user_id\`),INDEX \`idx_midjourneys_action\` (\`action\`),INDEX \`idx_midjourneys_mj_id\` (\`mj_id\`),INDEX \`idx_midjourneys_submit_time\` (\`submit_time\`),INDEX \`idx_midjourneys_start_time\` (\`start_time\`),INDEX \`idx_midjourneys_finish_time\` (\`finish_time\`),INDEX \`idx_midjourneys_status\` (\`status\`));
CREATE TABLE \`top_ups\` (\`id\` bigint AUTO_INCREMENT,\`user_id\` bigint,\`amount\` bigint,\`money\` double,\`trade_no\` longtext,\`create_time\` bigint,\`status\` longtext,PRIMARY KEY (\`id\`),INDEX \`idx_top_ups_user_id\` (\`user_id\`));
CREATE TABLE \`quota_data\` (\`id\` bigint AUTO_INCREMENT,\`user_id\` bigint,\`username\` varchar(64) DEFAULT '',\`model_name\` varchar(64) DEFAULT '',\`created_at\` bigint,\`token_used\` bigint DEFAULT 0,\`count\` bigint DEFAULT 0,\`quota\` bigint DEFAULT 0,PRIMARY KEY (\`id\`),INDEX \`idx_quota_data_user_id\` (\`user_id\`),INDEX \`idx_qdt_model_user_name\` (\`model_name\`,\`username\`),INDEX \`idx_qdt_created_at\` (\`created_at\`));
CREATE TABLE \`tasks\` (\`id\` bigint AUTO_INCREMENT,\`created_at\` bigint,\`updated_at\` bigint,\`task_id\` varchar(50),\`platform\` varchar(30),\`user_id\` bigint,\`channel_id\` bigint,\`quota\` bigint,\`action\` varchar(40),\`status\` varchar(20),\`fail_reason\` longtext,\`submit_time\` bigint,\`start_time\` bigint,\`finish_time\` bigint,\`progress\` varchar(20),\`properties\` json,\`data\` json,PRIMARY KEY (\`id\`),INDEX \`idx_tasks_finish_time\` (\`finish_time\`),INDEX \`idx_tasks_created_at\` (\`created_at\`),INDEX \`idx_tasks_platform\` (\`platform\`),INDEX \`idx_tasks_channel_id\` (\`channel_id\`),INDEX \`idx_tasks_action\` (\`action\`),INDEX \`idx_tasks_status\` (\`status\`),INDEX \`idx_tasks_start_time\` (\`start_time\`),INDEX \`idx_tasks_task_id\` (\`task_id\`),INDEX \`idx_tasks_user_id\` (\`user_id\`),INDEX \`idx_tasks_submit_time\` (\`submit_time\`),INDEX \`idx_tasks_progress\` (\`progress\`));
CREATE TABLE \`setups\` (\`id\` bigint unsigned AUTO_INCREMENT,\`version\` varchar(50) NOT NULL,\`initialized_at\` bigint NOT NULL,PRIMARY KEY (\`id\`));
`;

/** Appendix A.4 of the import notes: one-api@8df4a26 gorm DDL (MySQL), verbatim. */
export const ONE_API_MYSQL_DDL = `
CREATE TABLE \`channels\` (\`id\` bigint AUTO_INCREMENT,\`type\` bigint DEFAULT 0,\`key\` text,\`status\` bigint DEFAULT 1,\`name\` varchar(191),\`weight\` bigint unsigned DEFAULT 0,\`created_time\` bigint,\`test_time\` bigint,\`response_time\` bigint,\`base_url\` varchar(191) DEFAULT '',\`other\` longtext,\`balance\` double,\`balance_updated_time\` bigint,\`models\` longtext,\`group\` varchar(32) DEFAULT 'default',\`used_quota\` bigint DEFAULT 0,\`model_mapping\` varchar(1024) DEFAULT '',\`priority\` bigint DEFAULT 0,\`config\` longtext,\`system_prompt\` text,PRIMARY KEY (\`id\`),INDEX \`idx_channels_name\` (\`name\`));
CREATE TABLE \`tokens\` (\`id\` bigint AUTO_INCREMENT,\`user_id\` bigint,\`key\` char(48),\`status\` bigint DEFAULT 1,\`name\` varchar(191),\`created_time\` bigint,\`accessed_time\` bigint,\`expired_time\` bigint DEFAULT -1,\`remain_quota\` bigint DEFAULT 0,\`unlimited_quota\` boolean DEFAULT false,\`used_quota\` bigint DEFAULT 0,\`models\` text,\`subnet\` varchar(191) DEFAULT '',PRIMARY KEY (\`id\`),UNIQUE INDEX \`idx_tokens_key\` (\`key\`),INDEX \`idx_tokens_name\` (\`name\`));
CREATE TABLE \`users\` (\`id\` bigint AUTO_INCREMENT,\`username\` varchar(191) UNIQUE,\`password\` longtext NOT NULL,\`display_name\` varchar(191),\`role\` bigint DEFAULT 1,\`status\` bigint DEFAULT 1,\`email\` varchar(191),\`github_id\` varchar(191),\`wechat_id\` varchar(191),\`lark_id\` varchar(191),\`oidc_id\` varchar(191),\`access_token\` char(32),\`quota\` bigint DEFAULT 0,\`used_quota\` bigint DEFAULT 0,\`request_count\` bigint DEFAULT 0,\`group\` varchar(32) DEFAULT 'default',\`aff_code\` varchar(32),\`inviter_id\` bigint,PRIMARY KEY (\`id\`),UNIQUE INDEX \`idx_users_aff_code\` (\`aff_code\`),INDEX \`idx_users_username\` (\`username\`),INDEX \`idx_users_display_name\` (\`display_name\`),INDEX \`idx_users_email\` (\`email\`),INDEX \`idx_users_we_chat_id\` (\`wechat_id\`),INDEX \`idx_users_lark_id\` (\`lark_id\`),INDEX \`idx_users_oidc_id\` (\`oidc_id\`),UNIQUE INDEX \`idx_users_access_token\` (\`access_token\`),INDEX \`idx_users_git_hub_id\` (\`github_id\`),INDEX \`idx_users_inviter_id\` (\`inviter_id\`));
CREATE TABLE \`options\` (\`key\` varchar(191),\`value\` longtext,PRIMARY KEY (\`key\`));
CREATE TABLE \`redemptions\` (\`id\` bigint AUTO_INCREMENT,\`user_id\` bigint,\`key\` char(32),\`status\` bigint DEFAULT 1,\`name\` varchar(191),\`quota\` bigint DEFAULT 100,\`created_time\` bigint,\`redeemed_time\` bigint,PRIMARY KEY (\`id\`),UNIQUE INDEX \`idx_redemptions_key\` (\`key\`),INDEX \`idx_redemptions_name\` (\`name\`));
CREATE TABLE \`abilities\` (\`group\` varchar(32),\`model\` varchar(191),\`channel_id\` bigint,\`enabled\` boolean,\`priority\` bigint DEFAULT 0,PRIMARY KEY (\`group\`,\`model\`,\`channel_id\`),INDEX \`idx_abilities_channel_id\` (\`channel_id\`),INDEX \`idx_abilities_priority\` (\`priority\`));
CREATE TABLE \`logs\` (\`id\` bigint AUTO_INCREMENT,\`user_id\` bigint,\`created_at\` bigint,\`type\` bigint,\`content\` longtext,\`username\` varchar(191) DEFAULT '',\`token_name\` varchar(191) DEFAULT '',\`model_name\` varchar(191) DEFAULT '',\`quota\` bigint DEFAULT 0,\`prompt_tokens\` bigint DEFAULT 0,\`completion_tokens\` bigint DEFAULT 0,\`channel_id\` bigint,\`request_id\` varchar(191) DEFAULT '',\`elapsed_time\` bigint DEFAULT 0,\`is_stream\` boolean DEFAULT false,\`system_prompt_reset\` boolean DEFAULT false,PRIMARY KEY (\`id\`),INDEX \`idx_logs_user_id\` (\`user_id\`),INDEX \`idx_created_at_type\` (\`created_at\`,\`type\`),INDEX \`index_username_model_name\` (\`model_name\`,\`username\`),INDEX \`idx_logs_token_name\` (\`token_name\`),INDEX \`idx_logs_model_name\` (\`model_name\`),INDEX \`idx_logs_channel_id\` (\`channel_id\`));
`;

/*
 * PostgreSQL, by the notes' rules (1.2; go-gorm/postgres): int → bigint, the id primary key →
 * bigserial, string → text (varchar(n) / char(n) where the tag sizes it; char(n) is blank-padded on
 * read, a pitfall the importer must trim), bool → boolean, float64 → decimal, gorm.DeletedAt →
 * timestamptz, `type:json` → json; `key` and `group` quoted. Primary keys and unique indexes as
 * gorm declares them; plain indexes are left out (they change nothing a reader sees).
 */

/** one-api@8df4a26 on PostgreSQL. */
export const ONE_API_POSTGRES_DDL = `
CREATE TABLE "channels" ("id" bigserial,"type" bigint DEFAULT 0,"key" text,"status" bigint DEFAULT 1,"name" text,"weight" bigint DEFAULT 0,"created_time" bigint,"test_time" bigint,"response_time" bigint,"base_url" text DEFAULT '',"other" text,"balance" decimal,"balance_updated_time" bigint,"models" text,"group" varchar(32) DEFAULT 'default',"used_quota" bigint DEFAULT 0,"model_mapping" varchar(1024) DEFAULT '',"priority" bigint DEFAULT 0,"config" text,"system_prompt" text,PRIMARY KEY ("id"));
CREATE TABLE "tokens" ("id" bigserial,"user_id" bigint,"key" char(48),"status" bigint DEFAULT 1,"name" text,"created_time" bigint,"accessed_time" bigint,"expired_time" bigint DEFAULT -1,"remain_quota" bigint DEFAULT 0,"unlimited_quota" boolean DEFAULT false,"used_quota" bigint DEFAULT 0,"models" text,"subnet" text DEFAULT '',PRIMARY KEY ("id"));
CREATE UNIQUE INDEX "idx_tokens_key" ON "tokens" ("key");
CREATE TABLE "users" ("id" bigserial,"username" text UNIQUE,"password" text NOT NULL,"display_name" text,"role" bigint DEFAULT 1,"status" bigint DEFAULT 1,"email" text,"github_id" text,"wechat_id" text,"lark_id" text,"oidc_id" text,"access_token" char(32),"quota" bigint DEFAULT 0,"used_quota" bigint DEFAULT 0,"request_count" bigint DEFAULT 0,"group" varchar(32) DEFAULT 'default',"aff_code" varchar(32),"inviter_id" bigint,PRIMARY KEY ("id"));
CREATE UNIQUE INDEX "idx_users_aff_code" ON "users" ("aff_code");
CREATE UNIQUE INDEX "idx_users_access_token" ON "users" ("access_token");
CREATE TABLE "options" ("key" text,"value" text,PRIMARY KEY ("key"));
CREATE TABLE "redemptions" ("id" bigserial,"user_id" bigint,"key" char(32),"status" bigint DEFAULT 1,"name" text,"quota" bigint DEFAULT 100,"created_time" bigint,"redeemed_time" bigint,PRIMARY KEY ("id"));
CREATE UNIQUE INDEX "idx_redemptions_key" ON "redemptions" ("key");
CREATE TABLE "abilities" ("group" varchar(32),"model" text,"channel_id" bigint,"enabled" boolean,"priority" bigint DEFAULT 0,PRIMARY KEY ("group","model","channel_id"));
CREATE TABLE "logs" ("id" bigserial,"user_id" bigint,"created_at" bigint,"type" bigint,"content" text,"username" text DEFAULT '',"token_name" text DEFAULT '',"model_name" text DEFAULT '',"quota" bigint DEFAULT 0,"prompt_tokens" bigint DEFAULT 0,"completion_tokens" bigint DEFAULT 0,"channel_id" bigint,"request_id" text DEFAULT '',"elapsed_time" bigint DEFAULT 0,"is_stream" boolean DEFAULT false,"system_prompt_reset" boolean DEFAULT false,PRIMARY KEY ("id"));
`;

/** new-api@bc322dd on PostgreSQL. */
export const NEW_API_POSTGRES_DDL = `
CREATE TABLE "channels" ("id" bigserial,"type" bigint DEFAULT 0,"key" text NOT NULL,"open_ai_organization" text,"test_model" text,"status" bigint DEFAULT 1,"name" text,"weight" bigint DEFAULT 0,"created_time" bigint,"test_time" bigint,"response_time" bigint,"base_url" text DEFAULT '',"other" text,"balance" decimal,"balance_updated_time" bigint,"models" text,"group" varchar(64) DEFAULT 'default',"used_quota" bigint DEFAULT 0,"model_mapping" text,"status_code_mapping" varchar(1024) DEFAULT '',"priority" bigint DEFAULT 0,"auto_ban" bigint DEFAULT 1,"other_info" text,"tag" text,"setting" text,"param_override" text,PRIMARY KEY ("id"));
CREATE TABLE "tokens" ("id" bigserial,"user_id" bigint,"key" char(48),"status" bigint DEFAULT 1,"name" text,"created_time" bigint,"accessed_time" bigint,"expired_time" bigint DEFAULT -1,"remain_quota" bigint DEFAULT 0,"unlimited_quota" boolean DEFAULT false,"model_limits_enabled" boolean DEFAULT false,"model_limits" varchar(1024) DEFAULT '',"allow_ips" text DEFAULT '',"used_quota" bigint DEFAULT 0,"group" text DEFAULT '',"deleted_at" timestamptz,PRIMARY KEY ("id"));
CREATE UNIQUE INDEX "idx_tokens_key" ON "tokens" ("key");
CREATE TABLE "users" ("id" bigserial,"username" text UNIQUE,"password" text NOT NULL,"display_name" text,"role" bigint DEFAULT 1,"status" bigint DEFAULT 1,"email" text,"github_id" text,"oidc_id" text,"wechat_id" text,"telegram_id" text,"access_token" char(32),"quota" bigint DEFAULT 0,"used_quota" bigint DEFAULT 0,"request_count" bigint DEFAULT 0,"group" varchar(64) DEFAULT 'default',"aff_code" varchar(32),"aff_count" bigint DEFAULT 0,"aff_quota" bigint DEFAULT 0,"aff_history" bigint DEFAULT 0,"inviter_id" bigint,"deleted_at" timestamptz,"linux_do_id" text,"setting" text,PRIMARY KEY ("id"));
CREATE UNIQUE INDEX "idx_users_access_token" ON "users" ("access_token");
CREATE UNIQUE INDEX "idx_users_aff_code" ON "users" ("aff_code");
CREATE TABLE "options" ("key" text,"value" text,PRIMARY KEY ("key"));
CREATE TABLE "redemptions" ("id" bigserial,"user_id" bigint,"key" char(32),"status" bigint DEFAULT 1,"name" text,"quota" bigint DEFAULT 100,"created_time" bigint,"redeemed_time" bigint,"used_user_id" bigint,"deleted_at" timestamptz,PRIMARY KEY ("id"));
CREATE UNIQUE INDEX "idx_redemptions_key" ON "redemptions" ("key");
CREATE TABLE "abilities" ("group" varchar(64),"model" varchar(255),"channel_id" bigint,"enabled" boolean,"priority" bigint DEFAULT 0,"weight" bigint DEFAULT 0,"tag" text,PRIMARY KEY ("group","model","channel_id"));
CREATE TABLE "logs" ("id" bigserial,"user_id" bigint,"created_at" bigint,"type" bigint,"content" text,"username" text DEFAULT '',"token_name" text DEFAULT '',"model_name" text DEFAULT '',"quota" bigint DEFAULT 0,"prompt_tokens" bigint DEFAULT 0,"completion_tokens" bigint DEFAULT 0,"use_time" bigint DEFAULT 0,"is_stream" boolean DEFAULT false,"channel_id" bigint,"channel_name" text,"token_id" bigint DEFAULT 0,"group" text,"other" text,PRIMARY KEY ("id"));
CREATE TABLE "midjourneys" ("id" bigserial,"code" bigint,"user_id" bigint,"action" varchar(40),"mj_id" text,"prompt" text,"prompt_en" text,"description" text,"state" text,"submit_time" bigint,"start_time" bigint,"finish_time" bigint,"image_url" text,"status" varchar(20),"progress" varchar(30),"fail_reason" text,"channel_id" bigint,"quota" bigint,"buttons" text,"properties" text,PRIMARY KEY ("id"));
CREATE TABLE "top_ups" ("id" bigserial,"user_id" bigint,"amount" bigint,"money" decimal,"trade_no" text,"create_time" bigint,"status" text,PRIMARY KEY ("id"));
CREATE TABLE "quota_data" ("id" bigserial,"user_id" bigint,"username" varchar(64) DEFAULT '',"model_name" varchar(64) DEFAULT '',"created_at" bigint,"token_used" bigint DEFAULT 0,"count" bigint DEFAULT 0,"quota" bigint DEFAULT 0,PRIMARY KEY ("id"));
CREATE TABLE "tasks" ("id" bigserial,"created_at" bigint,"updated_at" bigint,"task_id" varchar(50),"platform" varchar(30),"user_id" bigint,"channel_id" bigint,"quota" bigint,"action" varchar(40),"status" varchar(20),"fail_reason" text,"submit_time" bigint,"start_time" bigint,"finish_time" bigint,"progress" varchar(20),"properties" json,"data" json,PRIMARY KEY ("id"));
CREATE TABLE "setups" ("id" bigserial,"version" varchar(50) NOT NULL,"initialized_at" bigint NOT NULL,PRIMARY KEY ("id"));
`;

export type SqlTarget = { kind: 'mysql' | 'postgres'; url: string };
type Project = 'one-api' | 'new-api';
type Value = string | number | bigint | boolean | Buffer | null;

const TABLES: Record<Project, readonly string[]> = {
  'one-api': ['users', 'tokens', 'channels', 'redemptions', 'options', 'abilities', 'logs'],
  'new-api': [
    'users',
    'tokens',
    'channels',
    'redemptions',
    'options',
    'abilities',
    'logs',
    'midjourneys',
    'tasks',
    'top_ups',
    'quota_data',
    'setups',
  ],
};

const DDL: Record<SqlTarget['kind'], Record<Project, string>> = {
  mysql: { 'one-api': ONE_API_MYSQL_DDL, 'new-api': NEW_API_MYSQL_DDL },
  postgres: { 'one-api': ONE_API_POSTGRES_DDL, 'new-api': NEW_API_POSTGRES_DDL },
};

/** A table of the target: insert rows, column types by name. */
interface Target {
  exec(ddl: string): Promise<void>;
  tables(): Promise<Set<string>>;
  /** Column name → data_type (information_schema, lower case). */
  columnTypes(table: string): Promise<Map<string, string>>;
  insert(table: string, columns: string[], values: Value[]): Promise<void>;
  /** After explicit ids: the next generated id follows the highest (PostgreSQL sequences). */
  afterInsert(table: string): Promise<void>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Creates the fixture's project schema (new-api when its users have `deleted_at`, else one-api)
 * in the (empty) target database and copies every row of every table both hold: NULLs kept,
 * SQLite's 0/1 as booleans for PostgreSQL boolean columns, datetime text as MySQL takes it.
 * Returns the project and the rows copied per table.
 */
export async function copyFixture(
  sqlitePath: string,
  target: SqlTarget,
): Promise<{ project: Project; rows: Record<string, number> }> {
  const source = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  const to =
    target.kind === 'mysql' ? await mysqlTarget(target.url) : await postgresTarget(target.url);
  try {
    const userColumns = source.prepare('PRAGMA table_info(`users`)').all() as Array<{
      name: string;
    }>;
    const project: Project = userColumns.some((c) => c.name === 'deleted_at')
      ? 'new-api'
      : 'one-api';
    await to.exec(DDL[target.kind][project]);
    const inSource = new Set(
      (
        source.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
          name: string;
        }>
      ).map((t) => t.name),
    );
    const inTarget = await to.tables();
    const copied: Record<string, number> = {};
    const withIds: string[] = [];
    await to.begin();
    for (const table of TABLES[project]) {
      if (!inSource.has(table) || !inTarget.has(table)) continue;
      const types = await to.columnTypes(table);
      const rows = source.prepare(`SELECT * FROM \`${table}\``).all() as Array<
        Record<string, Value>
      >;
      for (const row of rows) {
        const columns = Object.keys(row).filter((c) => types.has(c));
        await to.insert(
          table,
          columns,
          columns.map((c) => convert(row[c] ?? null, types.get(c)!, target.kind)),
        );
      }
      copied[table] = rows.length;
      if (types.has('id')) withIds.push(table);
    }
    await to.commit();
    for (const table of withIds) await to.afterInsert(table);
    return { project, rows: copied };
  } finally {
    source.close();
    await to.close();
  }
}

/** A SQLite value as the target column takes it. */
function convert(value: Value, type: string, kind: SqlTarget['kind']): Value {
  if (value === null) return null;
  if (kind === 'postgres' && type === 'boolean')
    return value === 1 || value === 1n || value === true || value === '1' || value === 'true';
  if (
    kind === 'mysql' &&
    (type === 'datetime' || type === 'timestamp') &&
    typeof value === 'string'
  ) {
    // '2025-01-01 00:00:00+00:00' (mattn/go-sqlite3's format) → '2025-01-01 00:00:00.000' (UTC).
    const at = new Date(value.replace(' ', 'T'));
    return Number.isNaN(at.getTime()) ? value : at.toISOString().replace('T', ' ').replace('Z', '');
  }
  return value;
}

async function mysqlTarget(url: string): Promise<Target> {
  const conn = await createConnection({ uri: url, supportBigNumbers: true, charset: 'utf8mb4' });
  const q = (name: string) => `\`${name.replace(/`/g, '``')}\``;
  return {
    exec: async (ddl) => {
      for (const statement of ddl
        .split(/;\s*\n/)
        .map((s) => s.trim())
        .filter(Boolean))
        await conn.query(statement);
    },
    tables: async () => {
      const [rows] = await conn.query(
        'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
      );
      return new Set((rows as Array<{ name: string }>).map((r) => r.name));
    },
    columnTypes: async (table) => {
      const [rows] = await conn.query(
        'SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?',
        [table],
      );
      return new Map(
        (rows as Array<{ name: string; type: string }>).map((r) => [r.name, r.type.toLowerCase()]),
      );
    },
    insert: async (table, columns, values) => {
      await conn.query(
        `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        values,
      );
    },
    afterInsert: async () => undefined,
    begin: async () => {
      await conn.beginTransaction();
    },
    commit: async () => {
      await conn.commit();
    },
    close: async () => {
      await conn.end();
    },
  };
}

async function postgresTarget(url: string): Promise<Target> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return {
    exec: async (ddl) => {
      await client.query(ddl);
    },
    tables: async () => {
      const { rows } = await client.query<{ name: string }>(
        'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
      );
      return new Set(rows.map((r) => r.name));
    },
    columnTypes: async (table) => {
      const { rows } = await client.query<{ name: string; type: string }>(
        'SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
        [table],
      );
      return new Map(rows.map((r) => [r.name, r.type.toLowerCase()]));
    },
    insert: async (table, columns, values) => {
      await client.query(
        `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        values,
      );
    },
    afterInsert: async (table) => {
      const { rows } = await client.query<{ seq: string | null }>(
        'SELECT pg_get_serial_sequence($1, $2) AS seq',
        [q(table), 'id'],
      );
      const seq = rows[0]?.seq;
      if (seq)
        await client.query(
          `SELECT setval($1, COALESCE((SELECT MAX(id) FROM ${q(table)}), 0) + 1, false)`,
          [seq],
        );
    },
    begin: async () => {
      await client.query('BEGIN');
    },
    commit: async () => {
      await client.query('COMMIT');
    },
    close: async () => {
      await client.end();
    },
  };
}
