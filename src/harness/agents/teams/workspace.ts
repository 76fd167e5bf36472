/**
 * The seam for isolated workspaces (issue 13 §3, built elsewhere): a teammate spawned with
 * `isolation: 'overlay'` works in the sandbox this factory returns instead of the shared one.
 * Without a factory only `shared` is accepted, and asking for `overlay` is a clear tool error.
 */
import type { Sandbox } from '../../ports.ts';

export type TeammateIsolation = 'shared' | 'overlay';

export type WorkspaceFactory = (req: { name: string; agentId: string; base: Sandbox }) => Promise<Sandbox>;
