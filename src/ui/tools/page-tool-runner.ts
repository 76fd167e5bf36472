/** The page's `UserToolRunner`: custom JS tools as jobs of the shared opaque-origin user-code frame. */
import type { UserToolRunner } from '../../harness/ports.ts';

export async function pageToolRunner(): Promise<UserToolRunner> {
  const [{ createFrameToolRunner }, { sharedFrameRuntime }] = await Promise.all([import('../../user-code/tools/frame-tool-runner.ts'), import('../../user-code/shared-runtime.ts')]);
  return createFrameToolRunner(sharedFrameRuntime());
}
