/**
 * The golden folder's light entry point: the case schemas only, for the scenario schema, which the
 * first screen loads. `index.ts` also brings the runner, and through it the agent loop (issue 23 §4).
 */
export { goldenCaseSchema, goldenCasesSchema, goldenObservedSchema, type GoldenCase, type GoldenCaseInput, type GoldenObserved } from './case.ts';
