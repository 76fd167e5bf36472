import { allowConsoleErrors, expect, firstVisitContext, test, type Page } from './browser.ts';
import { openApp, openSettings, runStatus, selectScenario, showFiles, waitForStatus } from './app.ts';
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';
import { fileEntry, linkPath, openAt, toolCalls } from './safety-fixtures.ts';

/** A scenario whose one bash call is a pure busy loop: it only ends by Stop (or its 120 s timeout). */
function busyLoopScenario(): Scenario {
  const r = parseScenario({
    id: 'busy-loop-link',
    title: 'A busy loop to stop',
    description: 'The bash call spins forever; Stop must end it while the page stays usable.',
    prompt: 'Spin.',
    files: { 'keep.txt': 'kept\n' },
    model: {
      kind: 'scripted',
      turns: [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'while true; do :; done' } }] },
        { content: [{ type: 'text', text: 'Done spinning.' }] },
      ],
    },
    settings: { maxTurns: 5, maxTokens: 2048, sandbox: 'just-bash' },
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

test('sandbox-status names just-bash and says why', async ({ page }) => {
  await openApp(page);
  await openSettings(page);
  const status = page.getByTestId('sandbox-status');
  // The choice may take a while under 'auto': WebContainer's boot is raced against a timeout first.
  // In the browser it runs in a Worker, and says what that buys.
  await expect
    .poll(async () => (await status.textContent()) ?? '', { timeout: 45_000 })
    .toMatch(/just-bash[\s\S]*in a Worker: Stop interrupts even a busy loop/i);
  const text = ((await status.textContent()) ?? '').replace(/\s+/g, ' ');
  // A reason, not just a name.
  expect(text.replace(/just-bash/gi, '').trim().length).toBeGreaterThan(10);
});

test('the sandbox contract self-check passes on just-bash in a Worker in Chromium', { timeout: 240_000 }, async ({ page }) => {
  await openApp(page);
  await openSettings(page);
  const button = page.getByTestId('btn-selfcheck').or(page.getByRole('button', { name: /self-check/i })).first();
  await button.click();
  const results = page.locator('[data-testid="selfcheck-result"]');
  await results.first().waitFor({ timeout: 45_000 });
  // The check is over when its button is usable again (node and git load QuickJS and isomorphic-git).
  await expect.poll(() => button.isEnabled(), { timeout: 180_000 }).toBe(true);

  const rowsOk = await results.evaluateAll((els) =>
    els.map((el) => ({ ok: el.getAttribute('data-ok'), text: (el.textContent ?? '').trim() })),
  );
  expect(rowsOk.length).toBeGreaterThanOrEqual(5);
  const failed = rowsOk.filter((r) => r.ok !== 'true');
  expect(failed, 'every contract check passes').toEqual([]);
  // The strict case ran on a sandbox that promises a preemptive abort (the Worker), and passed.
  expect(rowsOk.some((r) => r.text.includes('an abort stops a busy loop with exit 130 within ~1 s'))).toBe(true);
  // node (QuickJS-WASM loaded inside the module Worker) and git ran there too.
  for (const name of ['node runs a file and -e code', 'node --test runs test files', 'node: an abort stops a busy loop', 'git: init, add, commit']) {
    expect(rowsOk.some((r) => r.text.includes(name)), name).toBe(true);
  }
  console.log(`self-check rows (name, time incl. worker start-up):\n  ${rowsOk.map((r) => r.text.replace(/\s+/g, ' ')).join('\n  ')}`);
});

/**
 * Whether the sandbox Worker is busy: a probe evaluated in it does not come back within
 * `patienceMs` (an idle worker answers in milliseconds; one spinning in a loop cannot answer).
 */
async function sandboxWorkerBusy(page: Page, patienceMs: number): Promise<boolean> {
  const worker = page.workers().find((w) => /\/sandbox-worker-[\w-]+\.js$/.test(w.url()));
  if (!worker) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const busy = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), patienceMs)));
  const answered = worker.evaluate(() => false).catch(() => false);
  const result = await Promise.race([answered, busy]);
  clearTimeout(timer);
  return result;
}

test('Stop ends a busy loop in the sandbox at once, and the page stays responsive while it spins', async ({ page }) => {
  await openAt(page, linkPath(busyLoopScenario()));
  await page.getByTestId('btn-run').click();
  const dialog = page.getByTestId('permission-dialog');
  // Answer the permission question (the loop is not read-only), then wait until the loop spins:
  // the event list shows tool.started, and the sandbox Worker is too busy to answer a probe.
  await expect
    .poll(
      async () => {
        if (await dialog.isVisible()) await page.getByTestId('btn-allow-once').click();
        return page.locator('[data-testid="event-row"][data-type="tool.started"]').count();
      },
      { timeout: 45_000 },
    )
    .toBe(1);
  await expect.poll(() => sandboxWorkerBusy(page, 1500), { timeout: 30_000 }).toBe(true);
  expect(await runStatus(page)).toBe('running');

  // The loop spins in the Worker; the page's thread is free: the theme toggle works at once.
  const html = page.locator('html');
  const before = await html.getAttribute('data-theme');
  await page.getByTestId('theme-toggle').click();
  await expect.poll(() => html.getAttribute('data-theme')).not.toBe(before);
  expect(await runStatus(page), 'still spinning: nothing but Stop ends this loop').toBe('running');

  const clicked = Date.now();
  await page.getByTestId('btn-stop').click();
  // The loop's own timeout is 120 s: ending within seconds means Stop ended it.
  await waitForStatus(page, 'aborted');
  console.log(`Stop → run-status "aborted" in ${Date.now() - clicked} ms (busy loop in the Worker)`);
  const result = await toolCalls(page).first().getByTestId('tool-result').textContent();
  expect(result).toMatch(/Command was aborted: the run was stopped by the user/);
  // Stopped in place through shared memory, not by replacing the worker.
  expect(result).not.toMatch(/restarted/);
  expect(await page.getByTestId('event-list').locator('[data-testid="event-row"][data-type="tool.result"]').count()).toBe(1);
  // The files are intact, the worker answers again, and the page still works.
  await fileEntry(page, '/home/project/keep.txt').waitFor();
  expect(await sandboxWorkerBusy(page, 10_000)).toBe(false);
  await page.getByTestId('theme-toggle').click();
  await expect.poll(() => html.getAttribute('data-theme')).toBe(before);
});

/**
 * Counts the sandbox workers the page constructs (by their script): call before `openApp`. With
 * `redirectTo`, each is pointed at that URL instead (a script that cannot load). The only thing in
 * these tests that wraps a page API.
 */
async function countSandboxWorkers(page: Page, redirectTo?: string): Promise<() => Promise<number>> {
  await page.addInitScript((redirect) => {
    const Native = window.Worker;
    const scripts: string[] = [];
    (window as unknown as { __workerScripts: string[] }).__workerScripts = scripts;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        const sandbox = String(url).includes('sandbox-worker');
        super(sandbox && redirect ? new URL(redirect, location.href) : url, options);
        if (sandbox) scripts.push(String(url));
      }
    };
  }, redirectTo ?? '');
  return () => page.evaluate(() => (window as unknown as { __workerScripts: string[] }).__workerScripts.length);
}

test('on a first visit the sandbox worker waits for the harness, a Step clicked meanwhile runs from the start files, and the first sandbox is that worker; a reload starts it with the entry', async ({ browser }) => {
  // A context of its own: the file's shares its HTTP cache between tests, and this one needs a first visit.
  const context = await firstVisitContext(browser);
  try {
    await context.addInitScript(() => {
      if (window !== window.top) return;
      localStorage.setItem('hp.welcomed', '1');
      localStorage.setItem('hp.holdQuestions', '0');
      localStorage.setItem('hp.modelPrefs', '{"replayPace":"instant"}');
    });
    const page = await context.newPage();
    const sandboxWorkers = await countSandboxWorkers(page);
    // Step clicked in the very frame it is enabled, before the worker can exist: the first event comes
    // from the start files (booting-sandbox.ts), not from a sandbox that has not started.
    await page.addInitScript(() => {
      if (window !== window.top || performance.getEntriesByName('test:armed').length > 0) return;
      performance.mark('test:armed');
      const frame = () => {
        const step = document.querySelector<HTMLButtonElement>('[data-testid="btn-step"]');
        if (!step || step.disabled) return void requestAnimationFrame(frame);
        performance.mark('test:step-clicked');
        step.click();
      };
      requestAnimationFrame(frame);
    });
    await openApp(page);
    await expect.poll(() => page.getByTestId('event-list').locator('[data-testid="event-row"]').count()).toBe(1);
    const marks = (names: string[]) => page.evaluate((ns) => ns.map((n) => performance.getEntriesByName(n)[0]?.startTime ?? -1), names);
    // A first visit (this context's cache is empty): just-bash's compile would compete with the first
    // paint and the harness on two cores, so the worker is created once the harness has loaded.
    await expect.poll(async () => (await marks(['hp:sandbox-worker-started']))[0]).toBeGreaterThan(0);
    const [worker, mounted, harness, clicked] = await marks(['hp:sandbox-worker-started', 'hp:mounted', 'hp:harness-loaded', 'test:step-clicked']);
    expect(clicked).toBeGreaterThan(0);
    expect(worker).toBeGreaterThan(mounted!);
    expect(worker).toBeGreaterThanOrEqual(harness!);
    await page.getByTestId('btn-run').click();
    await waitForStatus(page, 'done');
    // The run ran in that one worker: no second one was started for it.
    expect(await sandboxWorkers()).toBe(1);

    // A reload finds the page's script in the cache: the worker starts as the entry begins to run.
    await page.reload();
    await expect.poll(async () => (await marks(['hp:mounted']))[0]).toBeGreaterThan(0);
    const [early, evaluated] = await marks(['hp:sandbox-worker-started', 'hp:modules-evaluated']);
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThan(evaluated!);
  } finally {
    await context.close();
  }
});

test('a sandbox worker whose script cannot load: the sandbox says why and runs just-bash on the page\'s thread', async ({ page }) => {
  // Both the early worker and the spawner's retry point at a script the server does not have.
  const sandboxWorkers = await countSandboxWorkers(page, '/assets/no-such-sandbox-worker.js');
  allowConsoleErrors(page, /no-such-sandbox-worker|Failed to load resource|404/i);
  await openApp(page);
  await openSettings(page);
  await expect
    .poll(async () => ((await page.getByTestId('sandbox-status').textContent()) ?? '').replace(/\s+/g, ' '))
    .toMatch(/just-bash[\s\S]*in the page's thread/i);
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(await sandboxWorkers()).toBeGreaterThanOrEqual(1);
});

test('a sandbox that cannot start at all: the page says why and what to do, and a Step does not run without one', async ({ page }) => {
  // The worker's script and the page-thread just-bash it falls back to both fail to load.
  await countSandboxWorkers(page, '/assets/no-such-sandbox-worker.js');
  await page.route(/\/assets\/justbash-[\w-]+\.js$/, (route) => route.abort());
  allowConsoleErrors(page, /no-such-sandbox-worker|justbash-|Failed to load resource|404|dynamically imported module|ERR_FAILED/i);
  await openApp(page);
  const notice = async () => (await page.getByTestId('notice').textContent().catch(() => '')) ?? '';
  // Handed out before it started (reads of the scenario's files were answered meanwhile), it says so once it cannot.
  await expect.poll(notice).toMatch(/^The sandbox did not start: .+\. Press Reset to try again\.$/);
  await page.getByTestId('btn-step').click();
  await expect.poll(notice).toMatch(/Press Reset to try again/);
  await expect.poll(() => page.getByTestId('btn-step').isEnabled()).toBe(true);
  expect(await page.getByTestId('event-list').getByTestId('event-row').count()).toBe(0);
});

test('a scenario picked before anything ran takes over the sandbox worker the page booted: one worker, only its own files, and it runs', async ({ page }) => {
  const sandboxWorkers = await countSandboxWorkers(page);
  // The default scenario's sandbox boots with the page; the switch comes while it may still be booting.
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await showFiles(page);
  await fileEntry(page, '/home/project/calc.sh').waitFor();
  // Nothing of the first scenario's project is left in the worker that now serves this one.
  for (const gone of ['/home/project/README.md', '/home/project/src']) expect(await fileEntry(page, gone).count()).toBe(0);
  expect(await sandboxWorkers()).toBe(1);

  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(await toolCalls(page).filter({ hasText: 'bash test.sh' }).last().getByTestId('tool-result').textContent()).toContain("PASS: total is 60");
  // Reset after a run: that worker ran commands, so the next conversation gets a new one.
  await page.getByTestId('btn-reset').click();
  await expect.poll(sandboxWorkers).toBe(2);
});
