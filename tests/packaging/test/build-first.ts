// The packages this test packs: every library (its dependencies) and the CLI (not one of them).
import { buildDependencies } from '../../../vitest.build-dependencies.js';

export default function setup(): void {
  buildDependencies(['riskgate']);
}
