/**
 * Claude Code's `--output-format stream-json` messages, made from our TraceEvents: one `system`
 * `init` line (session id, cwd, model, tools, MCP servers, permission mode), then every `assistant`
 * message and every `user` message (tool results, injected notes) as it completes — a subagent's
 * with `parent_tool_use_id` set to the parent's `agent` call — and the `result` line last
 * (`result-object.ts`). Shapes as in Claude Code's headless / Agent SDK reference (SDKSystemMessage,
 * SDKAssistantMessage, SDKUserMessage). The person's own prompt is not echoed, as in Claude Code.
 */
import { BUILTIN_COMMANDS } from '../harness/commands/index.ts';
import type { ContentBlock, Message, StopReason, TraceEvent, Usage } from '../harness/index.ts';

export type InitInfo = { cwd: string; permissionMode: string; apiKeySource: 'ANTHROPIC_API_KEY' | 'none' };

export type SystemInit = {
  type: 'system';
  subtype: 'init';
  uuid: string;
  session_id: string;
  apiKeySource: InitInfo['apiKeySource'];
  cwd: string;
  tools: string[];
  mcp_servers: { name: string; status: 'connected' | 'failed' }[];
  model: string;
  permissionMode: string;
  slash_commands: string[];
  output_style: string;
};

export type AssistantLine = {
  type: 'assistant';
  uuid: string;
  session_id: string;
  parent_tool_use_id: string | null;
  message: { id: string; type: 'message'; role: 'assistant'; model: string; content: ContentBlock[]; stop_reason: StopReason | null; stop_sequence: null; usage: Usage };
};

export type UserLine = {
  type: 'user';
  uuid: string;
  session_id: string;
  parent_tool_use_id: string | null;
  message: { role: 'user'; content: ContentBlock[] };
};

export type ClaudeLine = SystemInit | AssistantLine | UserLine;

const blocksOf = (m: Message): ContentBlock[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as ContentBlock[]));

/** Folds the event stream into Claude Code's lines; `event` returns the lines an event completes. */
export class ClaudeMessageStream {
  private initDone = false;
  private readonly models = new Map<string, string>();
  private readonly lastResponse = new Map<string, { stopReason: StopReason | null; usage: Usage }>();
  /** Per agent: the user message last reported and how many of its blocks went out. */
  private readonly userSent = new Map<string, { index: number; blocks: number }>();
  private readonly mcp: SystemInit['mcp_servers'] = [];
  private tools: string[] = [];
  private messageCount = 0;

  constructor(
    private readonly sessionId: string,
    private readonly info: InitInfo,
    private readonly uuid: () => string,
  ) {}

  event(e: TraceEvent): ClaudeLine[] {
    const out: ClaudeLine[] = [];
    const main = e.agentId === 'main';
    switch (e.type) {
      case 'run.start':
        this.models.set(e.agentId, e.model);
        if (main) this.tools = e.tools;
        return out;
      case 'subagent.start':
        this.models.set(e.childAgentId, e.model);
        return out;
      case 'model.fallback':
        this.models.set(e.agentId, e.to);
        return out;
      case 'mcp.connect':
        if (main) this.mcp.push({ name: e.server, status: 'connected' });
        return out;
      case 'mcp.error':
        if (main && !this.mcp.some((s) => s.name === e.server)) this.mcp.push({ name: e.server, status: 'failed' });
        return out;
      case 'model.response':
        this.lastResponse.set(e.agentId, { stopReason: e.stopReason, usage: e.usage });
        return out;
      case 'message.appended':
        // The init line goes out once the prelude (settings, memory, MCP servers) has been seen.
        if (!this.initDone) out.push(this.init());
        out.push(...this.message(e));
        return out;
      case 'run.end':
        if (main && !this.initDone) out.push(this.init());
        return out;
      default:
        return out;
    }
  }

  private init(): SystemInit {
    this.initDone = true;
    return {
      type: 'system',
      subtype: 'init',
      uuid: this.uuid(),
      session_id: this.sessionId,
      apiKeySource: this.info.apiKeySource,
      cwd: this.info.cwd,
      tools: this.tools,
      mcp_servers: this.mcp,
      model: this.models.get('main') ?? 'unknown',
      permissionMode: this.info.permissionMode,
      slash_commands: BUILTIN_COMMANDS.map((c) => c.name),
      output_style: 'default',
    };
  }

  private message(e: Extract<TraceEvent, { type: 'message.appended' }>): ClaudeLine[] {
    const parent = e.parentToolUseId ?? null;
    if (e.message.role === 'assistant') {
      const r = this.lastResponse.get(e.agentId);
      this.messageCount++;
      return [
        {
          type: 'assistant',
          uuid: this.uuid(),
          session_id: this.sessionId,
          parent_tool_use_id: parent,
          message: {
            id: `msg_${this.sessionId.replace(/-/g, '').slice(0, 12)}_${this.messageCount}`,
            type: 'message',
            role: 'assistant',
            model: this.models.get(e.agentId) ?? 'unknown',
            content: blocksOf(e.message),
            stop_reason: r?.stopReason ?? null,
            stop_sequence: null,
            usage: r?.usage ?? { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
      ];
    }
    // The user's side: a message appended at an index already reported grew (content is merged so
    // roles alternate); only its new blocks go out.
    const blocks = blocksOf(e.message);
    const sent = this.userSent.get(e.agentId);
    const fresh = sent && sent.index === e.index ? blocks.slice(sent.blocks) : blocks;
    this.userSent.set(e.agentId, { index: e.index, blocks: blocks.length });
    if (e.origin === 'user' || fresh.length === 0) return [];
    return [{ type: 'user', uuid: this.uuid(), session_id: this.sessionId, parent_tool_use_id: parent, message: { role: 'user', content: fresh } }];
  }
}
