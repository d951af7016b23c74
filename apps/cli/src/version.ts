declare const RISKGATE_VERSION: string | undefined;

/** Injected by the bundler; the fallback serves tests that run the source directly. */
export const VERSION: string = typeof RISKGATE_VERSION === 'string' ? RISKGATE_VERSION : '0.0.0-dev';
