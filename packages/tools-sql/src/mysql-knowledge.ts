import type { Effect } from '@riskgate/risk';
import { unknownEffect, writeDb } from './statement-analysis.js';

/**
 * What riskgate knows about MySQL/MariaDB functions and tables. MariaDB lists its native
 * functions in information_schema.SQL_FUNCTIONS (MariaDB 10.11 below); functions its grammar
 * handles itself (IF, LEFT, DATE, …) are listed by hand. A name on neither list — a stored
 * function, a UDF, a newer built-in — is not vouched for. Tests enumerate SQL_FUNCTIONS on the
 * real server: every name there is either vouched for here or has an effect in MYSQL_FUNCTION_EFFECTS.
 */
export const MARIADB_SQL_FUNCTIONS = `ABS ACOS ADDDATE ADDTIME ADD_MONTHS AES_DECRYPT AES_ENCRYPT ASIN ATAN ATAN2 BIN BINLOG_GTID_POS
BIT_AND BIT_COUNT BIT_LENGTH BIT_OR BIT_XOR CAST CEIL CEILING CHARACTER_LENGTH CHAR_LENGTH CHR COALESCE COERCIBILITY COLLATION
COLUMN_CHECK COLUMN_EXISTS COLUMN_JSON COLUMN_LIST COMPRESS CONCAT CONCAT_OPERATOR_ORACLE CONCAT_WS CONNECTION_ID CONV CONVERT_TZ
COS COT COUNT CRC32 CRC32C CUME_DIST CURDATE CURTIME DATABASE DATEDIFF DATE_ADD DATE_FORMAT DATE_SUB DAYNAME DAYOFMONTH DAYOFWEEK
DAYOFYEAR DECODE DECODE_HISTOGRAM DECODE_ORACLE DEGREES DENSE_RANK ELT ENCODE ENCRYPT EXP EXPORT_SET EXTRACT EXTRACTVALUE FIELD
FIND_IN_SET FIRST_VALUE FLOOR FORMAT FOUND_ROWS FROM_BASE64 FROM_DAYS FROM_UNIXTIME GREATEST GROUP_CONCAT HEX IFNULL INET6_ATON
INET6_NTOA INET_ATON INET_NTOA INSTR ISNULL IS_FREE_LOCK IS_IPV4 IS_IPV4_COMPAT IS_IPV4_MAPPED IS_IPV6 IS_USED_LOCK JSON_ARRAY
JSON_ARRAYAGG JSON_ARRAY_APPEND JSON_ARRAY_INSERT JSON_COMPACT JSON_CONTAINS JSON_CONTAINS_PATH JSON_DEPTH JSON_DETAILED JSON_EQUALS
JSON_EXISTS JSON_EXTRACT JSON_INSERT JSON_KEYS JSON_LENGTH JSON_LOOSE JSON_MERGE JSON_MERGE_PATCH JSON_MERGE_PRESERVE JSON_NORMALIZE
JSON_OBJECT JSON_OBJECTAGG JSON_OVERLAPS JSON_PRETTY JSON_QUERY JSON_QUOTE JSON_REMOVE JSON_REPLACE JSON_SEARCH JSON_SET JSON_TYPE
JSON_UNQUOTE JSON_VALID JSON_VALUE LAG LAST_DAY LCASE LEAD LEAST LENGTH LENGTHB LN LOCATE LOG LOG10 LOG2 LOWER LPAD LPAD_ORACLE
LTRIM LTRIM_ORACLE MAKEDATE MAKETIME MAKE_SET MAX MD5 MEDIAN MICROSECOND MID MIN MOD MONTHNAME NAME_CONST NATURAL_SORT_KEY NOW
NTH_VALUE NTILE NULLIF NVL NVL2 OCT OCTET_LENGTH OLD_PASSWORD ORD PASSWORD PERCENTILE_CONT PERCENTILE_DISC PERCENT_RANK PERIOD_ADD
PERIOD_DIFF PI POSITION POW POWER QUARTER QUOTE RADIANS RAND RANDOM_BYTES RANK REGEXP_INSTR REGEXP_REPLACE REGEXP_SUBSTR
REPLACE_ORACLE REVERSE ROUND ROW_COUNT RPAD RPAD_ORACLE RTRIM RTRIM_ORACLE SCHEMA SCHEMAS SEC_TO_TIME SESSION_USER SFORMAT SHA SHA1
SHA2 SIGN SIN SOUNDEX SPACE SQRT STD STDDEV STDDEV_POP STDDEV_SAMP STRCMP STR_TO_DATE SUBDATE SUBSTR SUBSTRING SUBSTRING_INDEX
SUBSTR_ORACLE SUBTIME SUM SYSTEM_USER SYS_GUID TAN TIMEDIFF TIME_FORMAT TIME_TO_SEC TO_BASE64 TO_CHAR TO_DAYS TO_SECONDS TRIM
TRIM_ORACLE UCASE UNCOMPRESS UNCOMPRESSED_LENGTH UNHEX UNIX_TIMESTAMP UPDATEXML UPPER UUID UUID_SHORT VARIANCE VAR_POP VAR_SAMP
VERSION WEEK WEEKDAY WEEKOFYEAR WSREP_LAST_SEEN_GTID WSREP_LAST_WRITTEN_GTID YEARWEEK`;

/** Functions the grammar itself implements (not in SQL_FUNCTIONS), and MySQL 8 reads. */
const GRAMMAR_FUNCTIONS = `AVG ASCII CHAR CONVERT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER CURRENT_ROLE DATE DAY
DAYOFMONTH HOUR IF INSERT INTERVAL LEFT LOCALTIME LOCALTIMESTAMP MINUTE MONTH REPLACE RIGHT ROW_NUMBER SECOND SYSDATE TIME TIMESTAMP
TIMESTAMPADD TIMESTAMPDIFF TRUNCATE USER UTC_DATE UTC_TIME UTC_TIMESTAMP WEEK YEAR MATCH WEIGHT_STRING COLUMN_GET COLUMN_CREATE
COLUMN_ADD COLUMN_DELETE JSON_TABLE BIT_XOR ROW GROUPING REGEXP_LIKE ANY_VALUE BIN_TO_UUID UUID_TO_BIN IS_UUID FORMAT_BYTES
STATEMENT_DIGEST STATEMENT_DIGEST_TEXT ST_ASTEXT ST_GEOMFROMTEXT ST_X ST_Y ST_DISTANCE POINT ROUND LAST_VALUE EXISTS`;

const words = (text: string) => new Set(text.split(/\s+/).filter((word) => word !== ''));
export const MYSQL_HARMLESS_FUNCTIONS: ReadonlySet<string> = new Set([
  ...words(MARIADB_SQL_FUNCTIONS),
  ...words(GRAMMAR_FUNCTIONS),
]);

type Maker = (name: string, literal: string | undefined, argumentCount: number) => Effect[];

/** Functions never whitelisted, with what they do. */
export const MYSQL_FUNCTION_EFFECTS: Record<string, Maker> = {
  LOAD_FILE: (name, path) => [
    ...(path?.startsWith('/') ? [{ kind: 'read-path' as const, path, via: name }] : []),
    unknownEffect(`calls ${name}, which reads a file on the database server with the server's rights`, 'high'),
  ],
  SLEEP: (name) => [{ kind: 'unbounded', resource: 'time', detail: `calls ${name}, which waits` }],
  BENCHMARK: (name) => [
    { kind: 'unbounded', resource: 'time', detail: `calls ${name}, which repeats an expression to burn CPU` },
  ],
  GET_LOCK: (name) => [
    { kind: 'hold-lock', detail: `calls ${name}, which takes a named lock that outlives the statement` },
  ],
  RELEASE_LOCK: (name) => [{ kind: 'hold-lock', detail: `calls ${name}, which releases a named lock` }],
  RELEASE_ALL_LOCKS: (name) => [{ kind: 'hold-lock', detail: `calls ${name}, which releases named locks` }],
  MASTER_POS_WAIT: (name) => [
    { kind: 'unbounded', resource: 'time', detail: `calls ${name}, which waits for replication` },
  ],
  MASTER_GTID_WAIT: (name) => [
    { kind: 'unbounded', resource: 'time', detail: `calls ${name}, which waits for replication` },
  ],
  SOURCE_POS_WAIT: (name) => [
    { kind: 'unbounded', resource: 'time', detail: `calls ${name}, which waits for replication` },
  ],
  WAIT_FOR_EXECUTED_GTID_SET: (name) => [
    { kind: 'unbounded', resource: 'time', detail: `calls ${name}, which waits for replication` },
  ],
  WSREP_SYNC_WAIT_UPTO_GTID: (name) => [
    { kind: 'unbounded', resource: 'time', detail: `calls ${name}, which waits for the cluster` },
  ],
  DES_ENCRYPT: (name) => [unknownEffect(`calls ${name}, which reads the server's DES key file`)],
  DES_DECRYPT: (name) => [unknownEffect(`calls ${name}, which reads the server's DES key file`)],
  NEXTVAL: (name) => [writeDb('a sequence', `calls ${name}, which advances a sequence (a rollback does not undo it)`)],
  SETVAL: (name) => [writeDb('a sequence', `calls ${name}, which sets a sequence`)],
  LASTVAL: () => [],
  LAST_INSERT_ID: (name, _literal, count) =>
    count === 0
      ? []
      : [{ kind: 'change-session', detail: `calls ${name} with a value, which sets the session's last insert id` }],
};

/** Tables whose rows hold secrets (password hashes, replication and federated passwords). */
const SECRET_TABLES = new Map([
  ['user', 'account password hashes'],
  ['global_priv', 'account password hashes'],
  ['servers', 'passwords for federated servers'],
  ['slave_master_info', 'the replication password'],
  ['password_history', 'old password hashes'],
]);

const STATEMENT_TEXT =
  "the text of other sessions' statements, where passwords travel (CREATE USER … IDENTIFIED BY '…', a token in a query)";

/**
 * Tables and views holding other sessions' SQL text. The whole table is a secret read: which
 * of its columns a statement reads is not told apart (MySQL is read by tokens, not a tree).
 */
function statementTextTable(database: string, table: string): string | undefined {
  if (database === 'mysql' && (table === 'general_log' || table === 'slow_log')) return STATEMENT_TEXT;
  if (database === 'information_schema' && (table === 'processlist' || table === 'innodb_trx')) return STATEMENT_TEXT;
  if (
    database === 'performance_schema' &&
    (/^events_statements_/.test(table) || /^prepared_statements_instances$|^threads$|^processlist$/.test(table))
  )
    return STATEMENT_TEXT;
  if (database === 'sys' && /^(x\$)?(processlist|session|statement_analysis|statements_with_\w+)$/.test(table))
    return STATEMENT_TEXT;
  return undefined;
}

/** `mysql.user`, or `user` while `mysql` is the current database: a secret read. */
export function mysqlSecretTable(
  schema: string | undefined,
  table: string,
  currentDatabase: string | undefined,
): string | undefined {
  const database = (schema ?? currentDatabase)?.toLowerCase();
  if (database === undefined) return undefined;
  return (
    (database === 'mysql' ? SECRET_TABLES.get(table.toLowerCase()) : undefined) ??
    statementTextTable(database, table.toLowerCase())
  );
}
