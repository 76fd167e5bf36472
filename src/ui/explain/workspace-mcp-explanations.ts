/**
 * The explanations of isolated workspaces (created, changes, merge back, conflicts) and of MCP
 * servers (connect, tool lists, calls, errors), spread into `EVENT_EXPLANATIONS`.
 */
import type { EventOf } from '../../harness/index.ts';
import type { EventExplanations } from './event-explanations.ts';
import { list } from './list-text.ts';

/** What git recorded for a git-backed workspace's merge: the merge commit, or the merge in progress. */
function mergeInGit(git: EventOf<'workspace.merge'>['git']): string {
  if (!git) return '';
  if (git.error) return ` Git could not record it (${git.error}); the files were merged all the same.`;
  if (git.commit) return ` In git: merge commit \`${git.commit.slice(0, 7)}\` on the project's branch, with \`${git.branch}\`'s tip as its second parent.`;
  return ` In git: no merge commit yet — the merge of \`${git.branch}\` is in progress (MERGE_HEAD), and the \`git commit\` made after the conflicts are resolved concludes it.`;
}

type Keys =
  | 'workspace.created'
  | 'workspace.changes'
  | 'workspace.merge'
  | 'workspace.conflict'
  | 'mcp.connect'
  | 'mcp.tools'
  | 'mcp.call'
  | 'mcp.error';

export const WORKSPACE_MCP_EVENT_EXPLANATIONS: Pick<EventExplanations, Keys> = {
  'workspace.created': {
    means: 'An agent got its own copy of the working tree: its file tools and bash see the copy, and nothing it writes reaches the shared files until it is merged back.',
    why: (e) =>
      e.git
        ? `\`${e.forAgentId}\` was started with \`isolation: worktree\` in a git project, so \`${e.root}\` is a linked worktree on the new branch \`${e.git.branch}\`, checked out from HEAD (\`${e.git.base.slice(0, 7)}\`, ${e.files} file(s)). That commit is the merge base every later diff and overlap check is measured against.`
        : `\`${e.forAgentId}\` was started with \`isolation: worktree\`, so ${e.files} file(s) were copied to \`${e.root}\`. That copy is the snapshot every later diff and overlap check is measured against.`,
    otherwise: 'Without isolation, parallel agents write the same files directly, and the last write wins without anyone noticing.',
    lesson: 'isolated-workspaces-overlap',
    terms: ['workspace', 'subagent'],
  },
  'workspace.changes': {
    means: 'The agent finished; these are the files it added, changed or deleted in its copy, each as a diff against the snapshot.',
    why: (e) =>
      (e.changes.length ? `\`${e.forAgentId}\` changed ${list(e.changes.map((c) => `${c.path} (${c.kind}, +${c.addedLines} −${c.removedLines})`))}.` : `\`${e.forAgentId}\` changed nothing, so there is nothing to merge.`) +
      (e.git?.commit ? ` They are committed on \`${e.git.branch}\` as \`${e.git.commit.slice(0, 7)}\`, authored by the agent.` : ''),
    otherwise: 'Without a diff against the snapshot, nobody could tell what the agent did from what others did meanwhile.',
    lesson: 'isolated-workspaces-overlap',
    terms: ['workspace'],
  },
  'workspace.merge': {
    means: 'The agent’s changes were offered back: files nobody else touched were written to the shared tree; files that overlap with someone else’s change were refused.',
    why: (e) => `Written: ${list(e.applied.map((a) => (a.how === 'auto_merged' ? `${a.path} (merged three-way)` : a.path)))}. Refused as conflicts: ${list(e.conflicts)}. A file is refused when the shared copy changed since the snapshot and the two changes touch the same lines.${mergeInGit(e.git)}`,
    otherwise: 'A plain copy-back would overwrite whatever another agent had merged first.',
    lesson: 'isolated-workspaces-overlap',
    terms: ['workspace'],
  },
  'workspace.conflict': {
    means: 'Overlap detection: a file changed by this agent was also changed by someone else since its copy was taken, and the changes touch the same lines. It was not overwritten; someone must choose.',
    why: (e) => `\`${e.conflict.path}\` ${e.mergedBy ? `was already merged by \`${e.mergedBy}\`` : 'changed in the shared tree'} after \`${e.forAgentId}\` took its copy (${e.conflict.reason === 'both_changed' ? 'two agents changed it' : 'the shared copy moved on'}). Resolve it in the merge view: take this agent’s version, keep the current file, or edit; the lead agent is told the same in its tool result.`,
    otherwise: 'Without overlap detection, the second merge would silently replace the first agent’s work.',
    lesson: 'isolated-workspaces-overlap',
    terms: ['workspace'],
  },
  // MCP (src/harness/mcp/)
  'mcp.connect': {
    means: 'An MCP server finished the initialize handshake; its tools can now join the tool list.',
    why: (e) => `\`${e.server}\` answered over ${e.transport === 'in-page' ? 'messages to the in-page server (it runs in the isolated user-code runtime)' : `${e.transport === 'sse' ? 'SSE (the Streamable HTTP attempt was refused)' : 'Streamable HTTP'}${e.url ? ` at ${e.url}` : ''}`} in ${e.ms} ms${e.serverName ? `; it calls itself ${e.serverName}${e.serverVersion ? ` ${e.serverVersion}` : ''}` : ''}.`,
    otherwise: 'A server that does not answer is reported as `mcp.error` and its tools are absent; the run goes on without them.',
    lesson: 'mcp-in-page-server',
    terms: ['mcp'],
  },
  'mcp.tools': {
    means: 'A server listed its tools (`tools/list`); each becomes `mcp__<server>__<tool>` in the tool list, next to the built-ins.',
    why: (e) => `\`${e.server}\` offers ${list(e.tools.map((t) => t.name))}${e.skipped.length ? `; left out: ${e.skipped.map((s) => `\`${s.tool}\` (${s.reason})`).join(', ')}` : ''}. Rules and hook matchers name them like any tool: \`mcp__${e.server}__*\` covers all of them.`,
    otherwise: 'Without the prefix two servers (or a server and a built-in) could offer tools of the same name.',
    lesson: 'mcp-in-page-server',
    terms: ['mcp', 'rule'],
  },
  'mcp.call': {
    means: 'The harness sent one `tools/call` to an MCP server — after validation, hooks and permissions, exactly as for a built-in — and got this back.',
    why: (e) => `\`${e.name}\` called \`${e.tool}\` on \`${e.server}\` (${e.ms} ms): ${e.ok ? (e.isError ? 'the server answered with an error result, which the model reads' : 'the result goes back to the model as the tool_result') : 'no usable answer, so the model gets an error result naming the failure'}. The raw JSON-RPC request and response are in the MCP panel.`,
    otherwise: 'A denied call never reaches the server: a `permission.decision` deny ends it before this point.',
    lesson: 'mcp-in-page-server',
    terms: ['mcp', 'tool-use-id'],
  },
  'mcp.error': {
    means: 'An MCP server could not be used for something: it is down, timed out, answered garbage, is not approved, or its config is wrong.',
    why: (e) => `\`${e.server}\` (${e.phase}${e.tool ? `, \`${e.tool}\`` : ''}): ${e.message}`,
    otherwise: 'The run continues: a server that failed has no tools in the list, and a call that failed is an error result the model can react to.',
    lesson: 'mcp-in-page-server',
    terms: ['mcp', 'trust'],
  },
  // money
};
