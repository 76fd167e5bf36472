/**
 * The ports: every side effect the harness has reaches it through one of these interfaces,
 * injected as `deps`. `src/harness/` imports nothing that touches the DOM, IndexedDB or the
 * network, so the same loop runs in Node (tests, benchmarks, headless runs) and in the browser.
 *
 * Implementations live beside the harness: `src/model/*`, `src/sandbox/*`, `src/storage/*`.
 *
 * Each port, with its JSDoc contract, is one file in `ports/`; this file gathers them so there is
 * one import path for all of them (import from here, not from `ports/`).
 */
// Leaf types live in `leaf-types.ts` (which imports none of ports / trace / session), so trace.ts
// can use them without a cycle; re-exported here so every existing import keeps working.
export type { MemoryOrigin, MemorySource, ModelError, ModelErrorKind, ReplayDivergence, SandboxKind } from './leaf-types.ts';

export type { ModelStreamEvent, ModelClient } from './ports/model.ts';
export { WORKDIR, HOME_DIR, SandboxFsError } from './ports/sandbox.ts';
export type { ExecOptions, ExecResult, FileStat, DirEntry, SandboxFs, SandboxCapabilities, Sandbox } from './ports/sandbox.ts';
export type { GitIdentity, SandboxGit } from './ports/git.ts';
export type { JsHookResult, JsHookRunner, HttpHookRequest, HttpHookResponse, HttpHookClient } from './ports/hooks.ts';
export type { UserToolFiles, UserToolResult, UserToolRunner } from './ports/user-tools.ts';
export type { McpConnector, McpConnection } from './ports/mcp.ts';
export type { Clock, IdGen } from './ports/time.ts';
export type { TrustStore } from './ports/trust.ts';
export { MemoryStoreError } from './ports/memory.ts';
export type { MemoryEntry, MemoryStoreErrorCode, MemoryStore } from './ports/memory.ts';
export type { SessionInfo, SessionStoreErrorCode, SessionStoreError, SessionResult, StorageEstimate, SessionUsage, SessionStore } from './ports/sessions.ts';
