/**
 * The tools folder's light entry point: the parts the first screen needs (the file-state record
 * a run keeps, the edit matcher a replayed diff uses) without the tools themselves, whose input
 * schemas (zod) load with a run or the what-if panel.
 */
export { FileState, type Snapshot } from './file-state.ts';
export { applyEdit } from './edit-match.ts';
