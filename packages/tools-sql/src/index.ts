export { missingDriverMessage, SQL_DRIVERS, type SqlDriverName } from './drivers.js';
export { demoDatabasePath, ensureDemoDatabase } from './demo-database.js';
export {
  createDescribeSchemaTool,
  DESCRIBE_SCHEMA_TOOL_NAME,
  describeSchemaParameters,
} from './describe-schema-tool.js';
export {
  createExecuteSqlTool,
  type ExecuteSqlArgs,
  executeSqlParameters,
  SQL_TOOL_NAME,
  type SqlToolOptions,
} from './execute-sql-tool.js';
export {
  formatCell,
  isNumericColumn,
  formatRunForModel,
  formatSchemaForModel,
  MAX_MODEL_COLUMNS,
  MAX_MODEL_TABLE_CHARS,
} from './format-results.js';
export {
  type AssessSqlOptions,
  assessSql,
  loadSqlParser,
  type SqlAssessment,
  type SqliteDatabase,
} from './sql-assessor.js';
export {
  type ColumnDescription,
  formatPreviewLine,
  assessAndRun,
  isSqlFailure,
  type PreviewLine,
  type RunOptions,
  type SchemaDescription,
  type SqlConnection,
  type TableDescription,
} from './sql-connection.js';
export { openSqlConnection } from './open-sql-connection.js';
export { type ConventionContext, describeSettings, type Setting } from './connection-settings.js';
export { type ChosenDatabase, chooseDatabase, fromDatabaseUrl } from './database-source.js';
export { describeConnectionSettings } from './describe-connection.js';
export { lexSql, type SqlStatementText } from './sql-lexer.js';
export type { PlannedStatement, SqlPlan } from './sql-plan.js';
export {
  DEFAULT_SQL_LIMITS,
  type SqlColumn,
  type SqlErrorCode,
  type SqlFailure,
  type SqlLimits,
  type SqlRunResult,
  type StatementResult,
} from './sql-results.js';
export type { StatementAnalysis } from './statement-analysis.js';
// Used on its own, a tool needs two parts of the gate as well: its JSON schema for a model's API
// (with risk_level) and the gate's verdict. Re-exported so an app can install this package alone.
export {
  DEFAULT_POLICY,
  type Decision,
  evaluateToolCall,
  type GatePolicy,
  toolFunctionDefinition,
} from '@riskgate/risk';
