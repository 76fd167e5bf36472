export { createdEvent, createIsolatedWorkspace, type IsolatedWorkspace, type IsolatedWorkspaceOptions } from './isolated-workspace.ts';
export { diffTrees, fileChange, type ChangeKind, type FileChange } from './changes.ts';
export { applyMerge, planMerge, resolvedContent, type Conflict, type ConflictReason, type ConflictSide, type MergePlan, type MergeResult, type PlannedWrite, type Resolution } from './merge.ts';
export { mergeLedger, withMergeLock } from './ledger.ts';
export { WORKSPACES_ROOT } from './paths.ts';
export type { ChangeSummary, WorkspaceEventBody } from './events.ts';
export { offerBack, type OfferBackResult } from './offer-back.ts';
