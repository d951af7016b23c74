/** A node of libpg-query's parse tree, as JSON: read by the tree walker and the size checks alike. */
export type Node = Record<string, unknown>;
