import type { SafetyMode } from '@riskgate/risk';

/** Modes `--mode` takes; yolo only through its own flag, so it is never a typo away. */
const MODE_FLAG_VALUES: readonly SafetyMode[] = ['strict', 'smart', 'guarded'];

/** `--mode` and `--yolo` as the assistant and `riskgate mcp` read them: the mode, or the error to print. */
export function modeFromFlags(values: {
  readonly mode?: string | undefined;
  readonly yolo?: boolean | undefined;
}): { readonly mode?: SafetyMode } | { readonly error: string } {
  if (values.mode !== undefined && !(MODE_FLAG_VALUES as readonly string[]).includes(values.mode)) {
    return { error: `--mode must be strict, smart or guarded, not "${values.mode}" (use --yolo for yolo)` };
  }
  if (values.yolo === true && values.mode !== undefined) return { error: '--yolo and --mode together: choose one' };
  if (values.yolo === true) return { mode: 'yolo' };
  return values.mode === undefined ? {} : { mode: values.mode as SafetyMode };
}
