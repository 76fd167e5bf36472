/**
 * What a tool call touches, extracted once from its name and input so every stage (rules, modes,
 * suggestions, what-if) reasons about the same facts.
 */
import { analyzeCommand, type CommandAnalysis } from './bash-command.ts';
import { resolveArgPath } from './path-match.ts';
import type { ShellParser } from './shell-parser.ts';
import { globSearchRoot } from '../tools/glob-match.ts';

export type CallFacts =
  | { kind: 'bash'; tool: string; command: string; analysis: CommandAnalysis; summary: string }
  /** read / write / edit / revert. `path` is absent for a revert of "the newest change". */
  | { kind: 'file'; tool: string; op: 'read' | 'edit'; path?: string; summary: string }
  /** glob / grep: `path` is the directory or file searched. */
  | { kind: 'search'; tool: string; path: string; summary: string }
  | { kind: 'fetch'; tool: string; host?: string; summary: string }
  /** `input`: the call's fields, for rule specifiers on other tools (`Agent(Explore)`, `Skill(name)`). */
  | { kind: 'other'; tool: string; summary: string; input?: Record<string, unknown> };

function str(input: unknown, key: string): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const v = (input as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

function oneLine(s: string, max = 300): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max) + '…' : flat;
}

/** `shell`: the parser that splits a bash command (the executor's, when the composition root bound one). */
export function callFacts(name: string, input: unknown, cwd: string, workdir: string, shell?: ShellParser): CallFacts {
  switch (name) {
    case 'bash': {
      const command = str(input, 'command') ?? '';
      return { kind: 'bash', tool: name, command, analysis: analyzeCommand(command, cwd, workdir, shell), summary: command };
    }
    case 'read':
    case 'write':
    case 'edit':
    case 'revert': {
      const fp = str(input, 'file_path');
      const op = name === 'read' ? 'read' : 'edit';
      if (fp === undefined) return { kind: 'file', tool: name, op, summary: '' };
      return { kind: 'file', tool: name, op, path: resolveArgPath(fp, cwd, workdir), summary: fp };
    }
    case 'glob':
    case 'grep': {
      const p = str(input, 'path');
      const pattern = str(input, 'pattern') ?? '';
      const root = name === 'glob' ? globSearchRoot({ pattern, ...(p !== undefined ? { path: p } : {}) }) : (p ?? '.');
      return {
        kind: 'search',
        tool: name,
        path: resolveArgPath(root, cwd, workdir),
        summary: p === undefined ? pattern : `${pattern} ${p}`,
      };
    }
    case 'webfetch':
    case 'web_fetch':
    case 'WebFetch': {
      const url = str(input, 'url') ?? '';
      let host: string | undefined;
      try {
        host = new URL(url).hostname;
      } catch {
        host = undefined;
      }
      return { kind: 'fetch', tool: name, ...(host ? { host } : {}), summary: url };
    }
    default:
      return {
        kind: 'other',
        tool: name,
        summary: oneLine(JSON.stringify(input ?? null)),
        ...(input !== null && typeof input === 'object' ? { input: input as Record<string, unknown> } : {}),
      };
  }
}
