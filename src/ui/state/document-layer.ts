/**
 * What `documents.ts` loads on demand: the scenario functions that validate with the schemas (zod),
 * gathered in one chunk the first screen does not carry. Import it only through `documents.ts`.
 */
export { decodeScenarioLinkV1, nestingError, scenarioLinkUrl } from '../../scenarios/codec.ts';
export { fromV0, migrateScenario, toRunnableScenario } from '../../scenarios/migrate.ts';
export { toScenario } from '../../scenarios/from-recording.ts';
export { scenarioCarriers } from '../../scenarios/actionable.ts';
export { latestWorkbench } from '../sessions/workbench-read.ts';
