import type { AnyTool } from '@riskgate/risk';
import type { SqlConnection } from '@riskgate/tools-sql';

export interface CatalogOptions {
  /** A database for the SQL tools; without one they are assessed by parser alone. */
  readonly connection?: SqlConnection;
}

/**
 * Every tool package riskgate ships, loaded on first use so that --version and --help stay
 * fast. A new tool package plugs in here.
 */
export async function loadToolCatalog(options: CatalogOptions = {}): Promise<ReadonlyMap<string, AnyTool>> {
  const [sql, command, file, http] = await Promise.all([
    import('@riskgate/tools-sql'),
    import('@riskgate/tools-command'),
    import('@riskgate/tools-file'),
    import('@riskgate/tools-http'),
  ]);
  const tools: AnyTool[] = [
    command.createExecuteCommandTool(),
    file.createFileOperationsTool(),
    http.createHttpRequestTool(),
    sql.createExecuteSqlTool({ ...(options.connection === undefined ? {} : { connection: options.connection }) }),
    sql.createDescribeSchemaTool({ ...(options.connection === undefined ? {} : { connection: options.connection }) }),
  ];
  return new Map(tools.map((tool) => [tool.name, tool]));
}

export type { AnyTool };
