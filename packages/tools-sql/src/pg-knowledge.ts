import type { Effect } from '@riskgate/risk';
import type { PgCatalog } from './pg-catalog.js';
import { unknownEffect, writeDb } from './statement-analysis.js';

/**
 * What riskgate knows about PostgreSQL beyond the catalog's volatility marks. The catalog
 * vouches (IMMUTABLE/STABLE built-ins are candidates); these tables only take away (stable
 * functions that still read secrets, files or run query text) or add back a short list of
 * volatile functions that only read. See docs/decisions/0006-sql-allowlists-from-the-engines.md.
 */

/** VOLATILE built-ins that only read (time, randomness, sizes, status): whitelisted. */
export const PG_VOLATILE_HARMLESS = new Set([
  'random',
  'clock_timestamp',
  'timeofday',
  'gen_random_uuid',
  'current_query',
  'pg_database_size',
  'pg_relation_size',
  'pg_table_size',
  'pg_indexes_size',
  'pg_total_relation_size',
  'pg_tablespace_size',
  'pg_is_in_recovery',
  'pg_is_wal_replay_paused',
  'pg_get_wal_replay_pause_state',
  'pg_jit_available',
  'pg_lock_status',
  'pg_blocking_pids',
  'pg_safe_snapshot_blocking_pids',
  'pg_current_wal_lsn',
  'pg_current_wal_insert_lsn',
  'pg_current_wal_flush_lsn',
  'pg_last_wal_receive_lsn',
  'pg_last_wal_replay_lsn',
  'pg_last_xact_replay_timestamp',
  'pg_partition_tree',
  'pg_partition_ancestors',
  'pg_notification_queue_usage',
  'pg_stat_have_stats',
  'pg_xact_status',
  'txid_status',
  'pg_xact_commit_timestamp',
  'pg_xact_commit_timestamp_origin',
  'pg_last_committed_xact',
  'pg_sequence_last_value',
  'currval',
  'lastval',
  'pg_stat_get_xact_blocks_fetched',
  'pg_stat_get_xact_blocks_hit',
  'pg_stat_get_xact_function_calls',
  'pg_stat_get_xact_function_self_time',
  'pg_stat_get_xact_function_total_time',
  'pg_stat_get_xact_numscans',
  'pg_stat_get_xact_tuples_deleted',
  'pg_stat_get_xact_tuples_fetched',
  'pg_stat_get_xact_tuples_hot_updated',
  'pg_stat_get_xact_tuples_inserted',
  'pg_stat_get_xact_tuples_returned',
  'pg_stat_get_xact_tuples_updated',
  'pg_collation_actual_version',
  'pg_database_collation_actual_version',
]);

type Maker = (name: string, literal: string | undefined) => Effect[];

const control: Maker = (name) => [
  { kind: 'control-process', detail: `calls ${name}, which signals or reconfigures the database server` },
];
const lock: Maker = (name) => [
  { kind: 'hold-lock', detail: `calls ${name}, which takes or releases an advisory lock that outlives a rollback` },
];
const sleep: Maker = (name) => [{ kind: 'unbounded', resource: 'time', detail: `calls ${name}, which waits` }];
const session: Maker = (name) => [
  { kind: 'change-session', detail: `calls ${name}, which changes the session's state` },
];
const write: Maker = (name) => [
  writeDb(
    'the database',
    `calls ${name}, which changes state a rollback does not undo (sequences, large objects, slots, WAL, catalogs)`,
  ),
];
const queryText: Maker = (name) => [
  {
    kind: 'run-program',
    program: `SQL built from its arguments (${name})`,
    note: `${name} runs a query given as text or reads whole tables, schemas or databases`,
  },
];
const secret =
  (what: string): Maker =>
  (name) => [{ kind: 'read-db', object: name, secret: what }];
const serverFile =
  (kind: 'read-path' | 'list-path' | 'write-path'): Maker =>
  (name, literal) => {
    const verb = kind === 'write-path' ? 'writes' : kind === 'list-path' ? 'lists' : 'reads';
    // Files on the server, read or written with the server's rights: a known danger, whatever the path.
    const effects: Effect[] = [
      unknownEffect(`calls ${name}, which ${verb} files on the database server with the server's rights`, 'high'),
    ];
    if (literal?.startsWith('/')) effects.unshift({ kind, path: literal, via: name });
    return effects;
  };

/** Built-ins that are never whitelisted, whatever their volatility, with the effect they have. */
const PG_FUNCTION_EFFECTS: [RegExp, Maker][] = [
  [
    /^pg_(terminate|cancel)_backend$|^pg_reload_conf$|^pg_rotate_logfile(_old)?$|^pg_promote$|^pg_log_backend_memory_contexts$|^pg_wal_replay_(pause|resume)$|^pg_switch_wal$|^pg_create_restore_point$|^pg_backup_(start|stop)$|^pg_(start|stop)_backup$|^pg_stat_reset|^pg_stat_force_next_flush$/,
    control,
  ],
  [/^pg_(try_)?advisory_/, lock],
  [/^pg_sleep/, sleep],
  [
    /^set_config$|^setseed$|^pg_replication_origin_(session|xact)_|^pg_export_snapshot$|^pg_stat_clear_snapshot$/,
    session,
  ],
  [/^pg_read_(binary_)?file(_old)?$|^pg_stat_file$|^pg_current_logfile$/, serverFile('read-path')],
  [/^pg_ls_/, serverFile('list-path')],
  [/^lo_export$/, serverFile('write-path')],
  [/^lo_import$/, serverFile('read-path')],
  [/^pg_hba_file_rules$|^pg_ident_file_mappings$/, secret("the server's client authentication files")],
  [
    /^pg_stat_get_activity$|^pg_stat_get_backend_activity$/,
    secret("the text of other sessions' statements (a CREATE ROLE … PASSWORD, a token in a query)"),
  ],
  [
    /^pg_show_all_file_settings$|^pg_show_all_settings$/,
    secret('every server setting, including primary_conninfo with its password'),
  ],
  [/^(query|cursor|table|schema|database)_to_xml|^ts_stat$|^ts_rewrite$/, queryText],
  [
    /^nextval$|^setval$|^lo_|^lo(read|write)$|^pg_nextoid$|^pg_(create|drop|copy)_.*replication_slot$|^pg_replication_slot_advance$|^pg_logical_|^pg_notify$|^brin_|^gin_clean_pending_list$|^pg_import_system_collations$|^binary_upgrade_|^pg_replication_origin_(create|drop|advance)$|^pg_extension_config_dump$|^pg_stop_making_pinned_objects$|^txid_current|^pg_current_xact_id/,
    write,
  ],
];

/** Server settings whose value is a secret (a connection string with a password, a command). */
const SECRET_SETTINGS = new Set([
  'primary_conninfo',
  'ssl_passphrase_command',
  'archive_command',
  'restore_command',
  'archive_cleanup_command',
  'recovery_end_command',
  'all',
]);

/**
 * Whether a setting's value may be a secret. Besides the server's own (SECRET_SETTINGS), every
 * custom setting — a name with a dot, `app.settings.jwt_secret` — is: applications keep their
 * secrets there (Supabase and PostgREST keep the JWT secret in one), and nothing in PostgreSQL
 * says what such a value holds. Extensions' settings share that form (`pg_stat_statements.max`)
 * and are asked too: reading them is rare, leaking a JWT secret is not.
 */
export function isSecretSetting(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_SETTINGS.has(lower) || lower.includes('.');
}

/** What the person is told a secret setting may hold. */
export function secretSettingHolds(name: string): string {
  const lower = name.toLowerCase();
  if (lower === 'all') return 'every setting, including primary_conninfo with its password';
  return lower.includes('.')
    ? 'a custom setting, where applications keep secrets (a JWT secret, an API key)'
    : 'a connection string or command with credentials';
}

/** Catalogs whose rows hold secrets: a plain SELECT of them is a secret read. */
export const PG_SECRET_RELATIONS = new Map([
  ['pg_authid', 'role password hashes'],
  ['pg_shadow', 'role password hashes'],
  ['pg_user_mapping', 'passwords for foreign servers'],
  ['pg_user_mappings', 'passwords for foreign servers'],
  ['pg_subscription', 'replication connection strings with passwords'],
  ['pg_file_settings', 'the server configuration files, including primary_conninfo'],
  ['pg_hba_file_rules', "the server's client authentication rules"],
  ['pg_ident_file_mappings', "the server's user name maps"],
  ['pg_settings', 'every server setting, including primary_conninfo with its password'],
  ['pg_largeobject', 'the content of every large object, whoever owns it'],
  ['pg_statistic', 'sampled values of every column, whoever may read the table'],
  ['pg_db_role_setting', 'per-database and per-role settings, custom settings holding secrets among them'],
]);

/**
 * Views whose column holds other sessions' SQL text, where passwords travel (`CREATE ROLE …
 * PASSWORD '…'`, `ALTER USER`, a token in a WHERE): reading that column, a `*`, a whole row or
 * JSON of a row is a secret read; the other columns (`SELECT pid, state FROM pg_stat_activity`) are not.
 */
export const PG_QUERY_TEXT_RELATIONS = new Map([
  ['pg_stat_activity', 'query'],
  ['pg_stat_statements', 'query'],
]);

/** information_schema views whose rows hold secrets: a foreign data wrapper's user mappings carry passwords. */
const INFORMATION_SCHEMA_SECRETS = new Map([
  ['user_mapping_options', 'passwords for foreign servers (user mapping options)'],
  ['user_mappings', 'passwords for foreign servers'],
  ['_pg_user_mappings', 'passwords for foreign servers'],
]);

export function secretRelation(schema: string | undefined, name: string): string | undefined {
  if (schema === 'information_schema') return INFORMATION_SCHEMA_SECRETS.get(name.toLowerCase());
  if (schema !== undefined && schema !== 'pg_catalog') return undefined;
  return PG_SECRET_RELATIONS.get(name.toLowerCase());
}

/**
 * The effects of calling one function. Empty when PostgreSQL's catalog vouches for it (an
 * IMMUTABLE or STABLE built-in not on the lists above, or a volatile one on the short list).
 */
export function pgFunctionEffects(
  name: string,
  schema: string | undefined,
  literal: string | undefined,
  catalog: PgCatalog,
): Effect[] {
  // The parser already folded unquoted names: the catalog is matched exactly, the lists in lower case.
  const lower = name.toLowerCase();
  const qualified = schema === undefined ? name : `${schema}.${name}`;
  if (schema !== undefined && schema.toLowerCase() !== 'pg_catalog') {
    return [
      unknownEffect(`calls ${qualified}, a function outside pg_catalog that PostgreSQL's catalog does not vouch for`),
    ];
  }
  if (lower === 'current_setting') {
    if (literal === undefined)
      return [unknownEffect('calls current_setting with a name riskgate cannot read (it may be a secret setting)')];
    return isSecretSetting(literal)
      ? [{ kind: 'read-db', object: `the setting ${literal}`, secret: secretSettingHolds(literal) }]
      : [];
  }
  for (const [pattern, make] of PG_FUNCTION_EFFECTS) if (pattern.test(lower)) return make(lower, literal);
  if (catalog.userFunctions.has(name)) {
    return [
      unknownEffect(`calls ${name}, a user-defined function (or an overload of one) that riskgate does not vouch for`),
    ];
  }
  if (catalog.stableFunctions.has(name)) return [];
  if (catalog.volatileFunctions.has(name)) {
    if (PG_VOLATILE_HARMLESS.has(name)) return [];
    return [
      unknownEffect(
        `calls ${name}, which PostgreSQL marks VOLATILE (it may change state) and riskgate does not vouch for`,
      ),
    ];
  }
  return [unknownEffect(`calls ${name}, which is not a built-in function of ${catalog.source}`)];
}
