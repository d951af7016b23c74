/**
 * Functions a SELECT can call that act on the world: they write, signal other sessions, read
 * server files, open connections or change settings. A statement calling one is never
 * whitelisted. Names are matched lower-cased, without schema; a trailing `*` is a prefix.
 */
const SIDE_EFFECT_FUNCTIONS: readonly string[] = [
  // PostgreSQL: other sessions, settings, sequences
  'pg_terminate_backend', 'pg_cancel_backend', 'pg_reload_conf', 'pg_rotate_logfile', 'set_config',
  'nextval', 'setval', 'pg_notify', 'pg_advisory_*', 'pg_try_advisory_*',
  // PostgreSQL: server files and large objects
  'pg_read_file', 'pg_read_binary_file', 'pg_ls_*', 'pg_stat_file', 'pg_file_*', 'lo_*',
  'pg_logdir_ls',
  // PostgreSQL: other databases, replication, WAL, maintenance
  'dblink*', 'pg_switch_wal', 'pg_create_restore_point', 'pg_promote', 'pg_backup_*', 'pg_start_backup',
  'pg_stop_backup', 'pg_create_*_replication_slot', 'pg_drop_replication_slot', 'pg_replication_*',
  'pg_logical_*', 'pg_copy_*_replication_slot', 'pg_stat_reset*', 'pg_import_system_collations',
  'pg_truncate_visibility_map', 'brin_summarize_*', 'brin_desummarize_range', 'gin_clean_pending_list',
  'pg_prewarm', 'pg_log_backend_memory_contexts', 'pg_wal_replay_*',
  // PostgreSQL: run a query given as text (it could be anything)
  'query_to_xml*', 'query_to_xmlschema', 'cursor_to_xml*',
  // SQLite
  'load_extension', 'writefile', 'readfile', 'edit', 'fts3_tokenizer', 'sqlite_dbpage',
];

const exact = new Set(SIDE_EFFECT_FUNCTIONS.filter((name) => !name.includes('*')));
const patterns = SIDE_EFFECT_FUNCTIONS.filter((name) => name.includes('*')).map(
  (name) => new RegExp(`^${name.replaceAll('*', '.*')}$`),
);

export function hasSideEffects(functionName: string): boolean {
  const name = functionName.toLowerCase();
  return exact.has(name) || patterns.some((pattern) => pattern.test(name));
}
