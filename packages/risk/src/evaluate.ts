import type { z } from 'zod/v4';
import { type Decision, decide, type GatePolicy, type TurnState } from './decide.js';
import { judgeEffects } from './judge.js';
import { readLlmRiskLevel, withoutRiskLevel } from './levels.js';
import type { AnyTool, AssessContext, Assessment } from './tool.js';

export type Evaluation =
  | { readonly valid: false; readonly decision: Decision }
  | { readonly valid: true; readonly args: unknown; readonly assessment: Assessment; readonly decision: Decision };

/** Validate, assess and decide one tool call. Never throws for bad input. */
export async function evaluateToolCall(
  tool: AnyTool,
  rawArgs: unknown,
  context: AssessContext,
  policy: GatePolicy,
  turn: TurnState = {},
): Promise<Evaluation> {
  const llm = readLlmRiskLevel(rawArgs);
  const parsed = tool.parameters.safeParse(withoutRiskLevel(rawArgs));
  if (!parsed.success) {
    const validationError = formatZodError(parsed.error);
    return {
      valid: false,
      decision: decide({ toolName: tool.name, valid: false, validationError, llm, policy, turn }),
    };
  }
  const assessment = await safeAssess(tool, parsed.data, context);
  const decision = decide({
    toolName: tool.name,
    valid: true,
    ruleStyle: tool.ruleStyle,
    assessment,
    llm,
    policy,
    turn,
  });
  return { valid: true, args: parsed.data, assessment, decision };
}

/**
 * The tool's effects, judged once. An assessor that throws is a fault of ours; the call is
 * then treated as dangerous, not safe.
 */
export async function safeAssess(tool: AnyTool, args: unknown, context: AssessContext): Promise<Assessment> {
  try {
    const report = await tool.assess(args, context);
    return { ...judgeEffects(report.effects, context), subjects: report.subjects, plan: { value: report.plan } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const failed = judgeEffects(
      [{ kind: 'unknown', detail: `the ${tool.name} assessor failed: ${message}`, severity: 'high' }],
      context,
    );
    return { ...failed, subjects: [] };
  }
}

export function formatZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}
