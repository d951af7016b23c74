// Inside the workspace, tests run the packages' TypeScript source, not their dist/: each
// package's exports map names it under the "@riskgate/source" condition (tsconfig.base.json
// sets the same condition for typechecking). Consumers of the published packages never set
// it and get dist/. The other conditions are Vite's defaults for server code.
const conditions = ['@riskgate/source', 'module', 'node', 'development|production'];

export const riskgateSourceConditions = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@riskgate/source'] } },
};
