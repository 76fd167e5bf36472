/**
 * Geometry of the loop diagram, after the seed's flowchart: the user feeds the loop; the loop
 * asks the model, sends tool calls through permission to the tools, and gets results back;
 * context and memory hang off the loop; hooks reach (dotted) into permission, tools and the loop.
 */
import type { StageNode } from '../state/stage.ts';

export type NodeBox = { id: StageNode; x: number; y: number; title: string; sub: string; wired: boolean; about: string };

export const NODE_W = 110;
export const NODE_H = 40;

export const NODES: NodeBox[] = [
  { id: 'user', x: 220, y: 30, title: 'User', sub: 'prompt', wired: true, about: 'The person’s prompt enters the loop here.' },
  { id: 'loop', x: 220, y: 114, title: 'Agent loop', sub: 'turns · transitions', wired: true, about: 'agentLoop(): one turn per model call; every continue and exit has a reason.' },
  { id: 'context', x: 68, y: 80, title: 'Context', sub: 'assemble · compact', wired: true, about: 'What the model sees: system prompt, tools and messages, sized in tokens.' },
  { id: 'memory', x: 68, y: 150, title: 'Memory', sub: 'CLAUDE.md · store', wired: true, about: 'CLAUDE.md files and ranked memories injected at the first prompt; "remember: …" facts saved after a run.' },
  { id: 'model', x: 376, y: 114, title: 'Model', sub: 'request · stream', wired: true, about: 'The Messages API (or the scripted stand-in) streaming a reply.' },
  { id: 'permission', x: 220, y: 208, title: 'Permission', sub: 'rules · mode · prompt', wired: true, about: 'Every tool call passes the pipeline: validate, the tool’s own check, PreToolUse hooks, rules (deny → ask → allow), the mode, and finally a prompt to you.' },
  { id: 'tools', x: 220, y: 294, title: 'Tools', sub: 'bash · read · edit', wired: true, about: 'Tool calls run in the sandbox; results go back to the loop.' },
  { id: 'agents', x: 376, y: 30, title: 'Subagents', sub: 'agent · fresh loop', wired: true, about: 'The agent tool starts a new agent loop with only its prompt; its events join this stream, and only its final text comes back.' },
  { id: 'hooks', x: 376, y: 252, title: 'Hooks', sub: 'command · JS', wired: true, about: 'Commands (in the sandbox) or JS functions (in a Worker) at SessionStart, PreToolUse, PostToolUse, Stop …; they can allow, deny, rewrite or block. See the Hooks tab.' },
];

export type Edge = {
  d: string;
  label: string;
  lx: number;
  ly: number;
  /** Centre the label on (lx, ly) instead of starting it there. */
  mid?: boolean;
  dotted?: boolean;
  both?: boolean;
  from: StageNode;
  to: StageNode;
};

export const EDGES: Edge[] = [
  { from: 'user', to: 'loop', d: 'M220,50 L220,92', label: 'prompt', lx: 226, ly: 75 },
  { from: 'loop', to: 'model', d: 'M277,114 L319,114', label: 'call', lx: 298, ly: 104, both: true, mid: true },
  { from: 'loop', to: 'context', d: 'M163,104 L125,90', label: 'size', lx: 146, ly: 88, both: true },
  { from: 'loop', to: 'memory', d: 'M163,124 L125,140', label: 'r/w', lx: 147, ly: 146, both: true },
  { from: 'loop', to: 'permission', d: 'M220,134 L220,186', label: 'tool call', lx: 226, ly: 164 },
  { from: 'permission', to: 'tools', d: 'M220,228 L220,272', label: 'granted', lx: 226, ly: 254 },
  { from: 'tools', to: 'loop', d: 'M163,294 C118,294 118,140 160,124', label: 'result', lx: 108, ly: 232 },
  { from: 'permission', to: 'loop', d: 'M277,204 C302,190 298,150 262,136', label: 'denied', lx: 300, ly: 176 },
  { from: 'loop', to: 'agents', d: 'M262,94 L321,48', label: 'spawn', lx: 304, ly: 82 },
  { from: 'hooks', to: 'permission', d: 'M319,243 L279,218', label: '', lx: 0, ly: 0, dotted: true },
  { from: 'hooks', to: 'tools', d: 'M319,262 L279,286', label: '', lx: 0, ly: 0, dotted: true },
  { from: 'hooks', to: 'loop', d: 'M376,232 C376,170 320,150 279,126', label: 'hooks', lx: 352, ly: 178, dotted: true },
];
