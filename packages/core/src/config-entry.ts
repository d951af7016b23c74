/**
 * The config alone, for a caller that needs it before anything else: the TUI loads it before
 * its first frame, and `@riskgate/core` would bring the agent, the gate and through them the
 * whole knowledge base (≈ 0.3 MB of JavaScript evaluated before the prompt is drawn).
 */
export {
  type ConfigFile,
  ConfigError,
  type LoadConfigOptions,
  loadConfig,
  type ResolvedConfig,
  type ResolvedTelemetry,
} from './config.js';
export { stateDirectory } from './paths.js';
