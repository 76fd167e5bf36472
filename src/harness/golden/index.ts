/** Golden tests for tools and hooks: record a call, re-run it, diff. See README.md. */
export { goldenCaseSchema, goldenCasesSchema, goldenObservedSchema, type GoldenCase, type GoldenCaseInput, type GoldenObserved } from './case.ts';
export { observeCall, recordableCalls } from './observe.ts';
export { compareObserved, lineDiff, type DiffLine, type GoldenDiff } from './compare.ts';
export { runGoldenCase, runGoldenCases, STOPPED, GOLDEN_TOOL_USE_ID, type GoldenOutcome, type GoldenRunEnv } from './run.ts';
export { formatGoldenTable } from './format.ts';
export { recordGoldenCase, type RecordResult } from './record.ts';
