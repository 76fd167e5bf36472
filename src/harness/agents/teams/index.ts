export { Team, DEFAULT_REQUEST_TIMEOUT_MS, type TeamRuntime, type Teammate, type OpenRequest, type Sink, type SpawnRequest } from './team.ts';
export { teamTools, spawnTeammateTool, sendMessageTool, readInboxTool } from './tools.ts';
export { withLock, DEFAULT_LOCK_STALE_MS, DEFAULT_LOCK_RETRY_MS, type LockOptions } from './lock.ts';
export { appendMessage, takeUnread, unreadMessages, allMessages, inboxPath, lockPath, TEAM_DIR } from './mailbox.ts';
export { claimNextTask, releaseTasksOf, type ClaimResult } from './claim.ts';
export { LEAD, messageLine, parseMailbox, type TeamMessage, type MessageType } from './message.ts';
export { canMove, type TeammateState } from './state.ts';
export type { TeamEventBody } from './events.ts';
export type { WorkspaceFactory, TeammateIsolation } from './workspace.ts';
