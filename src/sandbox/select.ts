/**
 * Picks the sandbox for a run and says why, in a sentence the UI shows next to the sandbox
 * badge. `auto` prefers WebContainer (real Node.js and npm) and falls back to just-bash; a
 * scenario that needs exact replays asks for just-bash outright.
 */
import type { Sandbox, SandboxKind } from '../harness/ports.ts';
import { createJustBashSandbox } from './justbash/index.ts';

export type SandboxPreference = 'auto' | 'just-bash' | 'webcontainer';

export type ChooseSandboxOptions = {
  /** Initial files, path (absolute or workdir-relative) → content. */
  files?: Record<string, string>;
  /** How long to wait for WebContainer to boot; default 20 s. */
  bootTimeoutMs?: number;
};

export type ChosenSandbox = { sandbox: Sandbox; live: SandboxKind; reason: string };

export async function chooseSandbox(pref: SandboxPreference, opts: ChooseSandboxOptions = {}): Promise<ChosenSandbox> {
  const files = opts.files ? { files: opts.files } : {};
  if (pref === 'just-bash') {
    return { sandbox: await createJustBashSandbox(files), live: 'just-bash', reason: 'just-bash chosen by the scenario for exact replays' };
  }
  try {
    // Loaded only now, so neither the adapter nor @webcontainer/api is in the first bundle.
    const { createWebContainerSandbox } = await import('./webcontainer/index.ts');
    const sandbox = await createWebContainerSandbox({
      ...files,
      ...(opts.bootTimeoutMs !== undefined ? { bootTimeoutMs: opts.bootTimeoutMs } : {}),
    });
    return {
      sandbox,
      live: 'webcontainer',
      reason: pref === 'webcontainer' ? 'WebContainer chosen by the scenario, and it booted' : 'WebContainer booted: real Node.js, npm and jsh',
    };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const sentence = pref === 'webcontainer' ? `The scenario asked for WebContainer: ${why}` : why;
    return { sandbox: await createJustBashSandbox(files), live: 'just-bash', reason: `${sentence} — using just-bash` };
  }
}
