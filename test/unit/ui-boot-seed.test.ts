/**
 * A built-in scenario's files go into its sandbox while it boots (src/ui/state/run-sandbox.ts), so
 * the first Step writes nothing; a sandbox written to before the first run is seeded by the run as
 * before (the scenario's files win), and the run's result is the same either way.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { firstBuiltinDoc } from '../../src/scenarios/library/first.ts';
import { stubLocalStorage } from '../helpers/local-storage.ts';
import { memoryPageState } from '../helpers/page-state.ts';

beforeAll(stubLocalStorage);

const page = () => memoryPageState().page;

const files = Object.entries(firstBuiltinDoc.files as Record<string, string>);

describe('the sandbox is seeded while it boots', () => {
  test('the files are there before the first Step, which writes nothing', async () => {
    const { ctl } = page();
    const sandbox = (await ctl.whenSandbox())!;
    expect(files.length).toBeGreaterThan(0);
    for (const [path, content] of files) expect(await sandbox.fs.readFile(`${sandbox.workdir}/${path}`)).toBe(content);
    const written: string[] = [];
    const unwatch = sandbox.fs.watch((e) => written.push(...e.paths));
    await ctl.step();
    unwatch();
    expect(ctl.events.map((e) => e.type)).toEqual(['run.start']);
    expect(written).toEqual([]);
  });

  test('a file written before the first run is seeded again by it, as before', async () => {
    const { ctl } = page();
    const sandbox = (await ctl.whenSandbox())!;
    const [path, content] = files[0]!;
    await sandbox.fs.writeFile(`${sandbox.workdir}/${path}`, 'edited before the run');
    await ctl.step();
    expect(ctl.events).toHaveLength(1);
    expect(await sandbox.fs.readFile(`${sandbox.workdir}/${path}`)).toBe(content);
  });
});
