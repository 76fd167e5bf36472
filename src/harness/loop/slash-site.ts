/**
 * Slash commands at the prompt site, as Claude Code runs them in its prompt box and in `-p`. Each
 * is a `slash.command` event. Only `/compact` may call the model:
 * - `/compact [instructions]` summarises the history now (PreCompact / PostCompact with trigger
 *   `manual`, the instructions in `custom_instructions`) and the run ends; with a live model that
 *   is auto-compact's summary call, priced as a `compact_summary` cost line (a scripted
 *   scenario's run summarises without a model: `run/prepare.ts`);
 * - `/clear` ends the session (SessionEnd `clear`), starts a new one (SessionStart `clear`) and
 *   leaves an empty conversation;
 * - `/context`, `/cost`, `/memory`, `/hooks`, `/permissions`, `/agents`, `/mcp` show something:
 *   the event names the page's panel and carries what the runner prints headless;
 * - an unknown `/foo` ends with a message listing the commands.
 * A custom command (`.claude/commands/<name>.md`) expands into the prompt the model sees; its
 * `allowed-tools` become allow rules for this run only, and UserPromptExpansion fires first. A
 * custom command of an untrusted document is not run.
 */
import { BUILTIN_COMMANDS, builtinCommand, builtinOutput, expandCommand, parseSlashCommand, unknownCommandMessage, type ProjectCommand } from '../commands/index.ts';
import { emptyContextState } from '../context/state.ts';
import { parseContextSettings } from '../context/settings.ts';
import { textOf, type Message } from '../messages.ts';
import { parseRule } from '../permissions/rules.ts';
import { toolNameWarning } from '../permissions/tool-names.ts';
import type { SourcedRule } from '../permissions/types.ts';
import { resolveModelAlias } from '../agents/subagents/model-alias.ts';
import type { TraceEvent } from '../trace.ts';
import type { ContextSite } from './context-site.ts';
import type { RunEmitter } from './emitter.ts';
import { drainInto, fireHook, type HookSiteEnv } from './hook-site.ts';
import type { LoopInput, LoopState, RunResult } from './types.ts';

export { parseSlashCommand };

/** Commands the loop itself runs to the end: every built-in (the page opens panels from their events). */
export const LOOP_SLASH_COMMANDS = BUILTIN_COMMANDS.map((c) => c.name);

export type SlashOutcome = { done: RunResult } | { state: LoopState; allow: SourcedRule[] };

type SlashEnv = { context: ContextSite; hooks: HookSiteEnv };

export async function* slashSite(input: LoopInput, state: LoopState, emit: RunEmitter, env: SlashEnv): AsyncGenerator<TraceEvent, SlashOutcome> {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'user') return { state, allow: [] };
  const typed = emit.stamp({ type: 'message.appended', origin: 'user', message: last, index: state.messages.length - 1 });
  const cmd = parseSlashCommand(textOf(last));
  if (!cmd) {
    yield typed;
    return { state, allow: [] };
  }
  // The command itself never stays in the history (only a custom command's expansion does).
  const before = { ...state, messages: state.messages.slice(0, -1) };
  const custom = input.commands?.commands.find((c) => c.name === cmd.name);
  // A project command may not shadow a built-in (Claude Code's built-ins win too).
  if (custom && !builtinCommand(cmd.name)) {
    if (!input.commands!.trusted) {
      yield typed;
      yield emit.stamp({ type: 'slash.command', name: cmd.name, args: cmd.args, kind: 'untrusted', path: custom.path });
      const why = `/${cmd.name} comes from ${custom.path} of a document you have not trusted, so it did not run: its prompt and allowed-tools act. Trust the document to use its commands.`;
      return { done: yield* emit.exit('completed', before, undefined, why) };
    }
    return yield* expandCustom(custom, cmd.args, before, emit, env.hooks);
  }
  yield typed;
  const builtin = builtinCommand(cmd.name);
  if (!builtin) {
    yield emit.stamp({ type: 'slash.command', name: cmd.name, args: cmd.args, kind: 'unknown' });
    const names = (input.commands?.commands ?? []).map((c) => c.name);
    return { done: yield* emit.exit('completed', before, undefined, unknownCommandMessage(cmd.name, names)) };
  }
  if (builtin.name === 'compact') return { done: yield* compact(cmd.args, state, before, emit, env.context) };
  if (builtin.name === 'clear') {
    yield emit.stamp({ type: 'slash.command', name: cmd.name, args: cmd.args, kind: 'builtin' });
    // As Claude Code: the old session ends, a new one starts, and nothing of the old history is sent again.
    yield* fireAll({ event: 'SessionEnd', reason: 'clear' }, emit, env.hooks);
    yield* fireAll({ event: 'SessionStart', source: 'clear', model: state.model }, emit, env.hooks);
    return { done: yield* emit.exit('completed', { ...before, messages: [], context: emptyContextState() }, undefined, '/clear: a new conversation starts (SessionEnd "clear", SessionStart "clear").') };
  }
  const output = builtinOutput(builtin.name, {
    system: input.system,
    tools: input.tools,
    ...(input.memory ? { memory: input.memory } : {}),
    messages: before.messages,
    windowTokens: parseContextSettings(input.context).windowTokens,
    ...(input.permissions ? { permissions: input.permissions } : {}),
    ...(env.hooks.hooks ? { hooks: env.hooks.hooks.config } : {}),
    ...(input.memoryInjected ? { memoryFiles: input.memoryInjected.files.map((f) => f.path) } : {}),
  });
  yield emit.stamp({ type: 'slash.command', name: cmd.name, args: cmd.args, kind: 'builtin', ...(builtin.panel ? { panel: builtin.panel } : {}), ...(output ? { output } : {}) });
  return { done: yield* emit.exit('completed', before, undefined, `/${builtin.name}: ${builtin.description} (in the page: the ${builtin.panel} panel).`) };
}

async function* fireAll(payload: Parameters<typeof fireHook>[0], emit: RunEmitter, hooks: HookSiteEnv): AsyncGenerator<TraceEvent> {
  const buffered: TraceEvent[] = [];
  await drainInto(fireHook(payload, hooks), (e) => buffered.push(emit.stamp(e)));
  yield* buffered;
}

async function* compact(args: string, state: LoopState, before: LoopState, emit: RunEmitter, context: ContextSite): AsyncGenerator<TraceEvent, RunResult> {
  const last = state.messages.at(-1);
  yield emit.stamp({ type: 'slash.command', name: 'compact', args, kind: 'builtin' });
  // The layers keep the newest exchange beside the summary; here that is the command, which is
  // then dropped: it never stays in the history.
  const done = yield* context.compactNow(state.messages, state.context, args);
  if (done.compaction && done.committed) {
    const kept = done.committed.at(-1) === last ? done.committed.slice(0, -1) : done.committed;
    const detail = `/compact: summarised ${done.compaction.messagesBefore} messages into ${kept.length}`;
    return yield* emit.exit('completed', { ...state, messages: kept, context: done.nextState }, undefined, detail);
  }
  const why = done.compactError ? `/compact failed: ${done.compactError}` : '/compact: nothing to compact yet';
  return yield* emit.exit('completed', { ...before, context: done.nextState }, undefined, why);
}

/** The allow rules a command's `allowed-tools` grant, and a warning for each entry that grants nothing here. */
export function commandAllowRules(command: Pick<ProjectCommand, 'allowedTools' | 'path'>): { rules: SourcedRule[]; warnings: string[] } {
  const rules: SourcedRule[] = [];
  const warnings: string[] = [];
  for (const text of command.allowedTools) {
    const parsed = parseRule(text);
    if (!parsed.ok) {
      warnings.push(`${command.path}: allowed-tools "${text}" is not a rule and grants nothing: ${parsed.error}`);
      continue;
    }
    const w = toolNameWarning(parsed.rule.tool, `${command.path}: allowed-tools "${text}"`);
    if (w) warnings.push(w);
    rules.push({ behavior: 'allow', source: 'command', rule: parsed.rule });
  }
  return { rules, warnings };
}

async function* expandCustom(command: ProjectCommand, args: string, before: LoopState, emit: RunEmitter, hooks: HookSiteEnv): AsyncGenerator<TraceEvent, SlashOutcome> {
  const prompt = expandCommand(command.body, args);
  const { rules, warnings } = commandAllowRules(command);
  yield emit.stamp({
    type: 'slash.command',
    name: command.name,
    args,
    kind: 'custom',
    path: command.path,
    allowedTools: command.allowedTools,
    ...(command.model ? { model: command.model } : {}),
    ...(warnings.length ? { warnings } : {}),
  });
  const buffered: TraceEvent[] = [];
  const o = await drainInto(fireHook({ event: 'UserPromptExpansion', commandName: command.name, commandArgs: args, prompt }, hooks), (e) => buffered.push(emit.stamp(e)));
  yield* buffered;
  if (o?.block) return { done: yield* emit.exit('prompt_blocked', before, undefined, `A UserPromptExpansion hook blocked /${command.name}: ${o.reason ?? 'no reason given'}`) };
  if (o?.stopRun) return { done: yield* emit.exit('hook_stopped', before, undefined, o.stopRun.reason) };
  const content = o?.additionalContext ? [{ type: 'text' as const, text: prompt }, { type: 'text' as const, text: `UserPromptExpansion hook context:\n${o.additionalContext}` }] : prompt;
  const a = emit.append(before.messages, { role: 'user', content } satisfies Message, 'user');
  yield a.event;
  return { state: { ...before, messages: a.messages, ...(command.model ? { model: resolveModelAlias(command.model) } : {}) }, allow: rules };
}
