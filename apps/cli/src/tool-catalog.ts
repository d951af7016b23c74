import type { AnyTool, AssessContext } from '@riskgate/risk';

/**
 * Every tool package riskgate ships, loaded on first use so that --version and --help stay
 * fast. A new tool package plugs in here.
 */
export async function loadToolCatalog(): Promise<ReadonlyMap<string, AnyTool>> {
  const tools: AnyTool[] = [];
  return new Map(tools.map((tool) => [tool.name, tool]));
}

export type { AnyTool, AssessContext };
