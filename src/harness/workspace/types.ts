/**
 * The plain-JSON shapes the `workspace.*` events carry. A leaf: it imports nothing, so `trace.ts`
 * can include the events without an import cycle through the ports.
 */

export type ChangeKind = 'added' | 'modified' | 'deleted';

export type ConflictReason =
  /** Two workspaces changed the file (and their hunks overlap). */
  | 'both_changed'
  /** The base changed the file since the workspace's snapshot (and the hunks overlap). */
  | 'base_changed';

export type ConflictSide = { workspaceId: string; after: string | null; patch: string };

export type Conflict = {
  path: string;
  reason: ConflictReason;
  /** The snapshot content the workspaces started from (null: the file did not exist). */
  ancestor: string | null;
  /** What the base holds now. */
  current: string | null;
  sides: ConflictSide[];
};
