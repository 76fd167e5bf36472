/**
 * What the runner is asked to run: the plans (a built-in, scenario files, `--all`, or a folder
 * from `--dir`), a folder's conversation (`--resume` / `--continue`), `--steer-file` and stdin.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Message } from '../harness/index.ts';
import type { ContextState } from '../harness/context/index.ts';
import type { SessionLogEvent } from '../harness/session/index.ts';
import type { Scenario } from '../scenarios/schema.ts';
import type { ScriptedSteer } from '../harness/agents/index.ts';
import type { CliArgs } from './args.ts';
import { loadDir, type LoadedDir } from './dir-workspace.ts';
import { readDirGit, type DirGit } from './dir-git.ts';
import { UsageError } from './usage-error.ts';
import { latestSessionId, loadSession, type SessionFileWriter } from './session-files.ts';
import { DEFAULT_LIVE_MODEL, engine, library } from './engine.ts';

/** A built-in id, or a scenario file of any version (v1 lessons run at their first prompt). */
export async function loadScenario(target: string): Promise<{ scenario: Scenario; builtin: boolean }> {
  if (!target.endsWith('.json')) {
    // Only the named built-in is read and validated; the whole library only to list the ids.
    const [{ loadBuiltinDoc }, { toRunnableScenario }] = await Promise.all([import('../scenarios/library/by-id.ts'), import('../scenarios/migrate.ts')]);
    const doc = await loadBuiltinDoc(target);
    if (doc) return { scenario: toRunnableScenario(doc, 0), builtin: true };
    const { builtinScenarios } = await library();
    throw new UsageError(`no built-in scenario "${target}" and it is not a .json path (built-ins: ${builtinScenarios.map((s) => s.id).join(', ')})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(target, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read ${target}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { migrateScenario, toRunnableScenario } = await engine();
  const migrated = migrateScenario(json);
  if (!migrated.ok) throw new UsageError(`${target} is not a valid scenario:\n  ${migrated.errors.join('\n  ')}`);
  return { scenario: toRunnableScenario(migrated.scenario, 0), builtin: false };
}

/** `--dir`: the folder's files and settings as a scenario on a live model. */
async function dirScenario(dir: LoadedDir, args: CliArgs, git: DirGit): Promise<Scenario> {
  const { parseScenario } = await engine();
  const id = basename(resolve(dir.root)).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'folder';
  const parsed = parseScenario({
    id: /^[a-z0-9]/.test(id) ? id : `dir-${id}`,
    title: `Folder ${dir.root}`,
    // With --input-format stream-json the prompts come from stdin, one run each.
    prompt: args.prompt ?? 'the prompt comes from stdin',
    files: dir.files,
    model: { kind: 'anthropic', model: args.model ?? DEFAULT_LIVE_MODEL },
    // A .git too large to carry: the files start as a repository with one commit (the page's settings.git).
    settings: { maxTurns: args.maxTurns ?? 50, ...(git.kind === 'seed' ? { git: { init: true, message: `Snapshot of ${basename(resolve(dir.root))} (harness-playground --dir)` } } : {}) },
  });
  if (!parsed.ok) throw new UsageError(`cannot use ${dir.root} as a workspace:\n  ${parsed.errors.join('\n  ')}`);
  return parsed.scenario;
}

/** `--steer-file`: one queued message per line, delivered at the next safe points. */
export async function loadSteers(path: string): Promise<ScriptedSteer[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the steer file ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { parseSteerFile } = await import('../harness/agents/index.ts');
  const { steers, errors } = parseSteerFile(text);
  if (errors.length > 0) throw new UsageError(`${path} has lines that cannot be queued:\n  ${errors.join('\n  ')}`);
  return steers;
}

/** `git`: what `--dir` does about the folder's history (dir-git.ts). */
export type RunPlan = { scenario: Scenario; trusted: boolean; dir?: LoadedDir; git?: DirGit };

/** A folder run's conversation: its session id and what earlier runs left (`--resume`, `--continue`, stdin messages). */
/** `log`: what earlier runs left, until `writer` (the session file, written as events happen) takes it over. */
export type Conversation = { id: string; prompt?: string; history: Message[]; contextState: ContextState | null; log: SessionLogEvent[]; appendable: boolean; writer?: SessionFileWriter };

export async function plans(args: CliArgs): Promise<RunPlan[]> {
  if (args.dir) {
    const loaded = await loadDir(args.dir);
    if (!loaded.ok) throw new UsageError(loaded.problem);
    const git = await readDirGit(args.dir);
    return [{ scenario: await dirScenario(loaded.dir, args, git), trusted: args.trust, dir: loaded.dir, git }];
  }
  if (args.all) return (await library()).builtinScenarios.map((scenario) => ({ scenario, trusted: true }));
  const out: RunPlan[] = [];
  for (const t of args.targets) {
    const { scenario, builtin } = await loadScenario(t);
    // Built-ins ship with the app; a file's hooks, allow rules and permissive modes apply only with --trust.
    out.push({ scenario, trusted: builtin || args.trust });
  }
  return out;
}

/** A folder's conversation: a new session, or the one `--resume ID` / `--continue` names. */
export async function conversation(root: string, args: CliArgs): Promise<Conversation> {
  const id = args.resume ?? (args.continue ? await latestSessionId(root) : null);
  if (args.continue && !id) throw new UsageError(`--continue: no saved session for ${resolve(root)} yet (run once with -p first)`);
  if (!id) return { id: randomUUID(), history: [], contextState: null, log: [], appendable: false };
  const loaded = await loadSession(root, id);
  if (!loaded.ok) throw new UsageError(loaded.problem);
  return { id, history: loaded.session.messages, contextState: loaded.session.contextState, log: loaded.session.log, appendable: loaded.session.appendable };
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
