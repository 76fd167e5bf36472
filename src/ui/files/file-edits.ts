/**
 * The person's own edits of the live sandbox from the Files panel: unsaved drafts (the dirty
 * marker), save, new file / folder, rename, delete and upload. Every change that reaches the
 * sandbox is reported through `record` (the run controller turns it into a `sandbox.changed`
 * event with origin `user`), so the log, replays and step-back show it and the agent reads the
 * new files on its next call. Failures are results with a sentence to show, never exceptions.
 */
import { SvelteMap } from 'svelte/reactivity';
import type { Sandbox } from '../../harness/index.ts';

/** What an action did, for the panel to follow: open a created file, follow a rename, close a deleted one. */
export type FileAction = 'created' | 'created-dir' | 'rename' | 'delete' | 'other';

export type EditResult = { ok: true; paths: string[] } | { ok: false; error: string };

export type FileEditsDeps = {
  /** The live sandbox, or null while none is booted. */
  sandbox: () => Sandbox | null;
  /** Why editing is not possible now (stepped back, read-only tab …), or null. */
  blocked: () => string | null;
  /** Told after every change that reached the sandbox, with the absolute paths it touched. */
  record: (paths: string[]) => Promise<void>;
};

/** An upload: a file's path relative to the folder it is dropped into, and its bytes. */
export type Upload = { path: string; bytes: Uint8Array };

/** The sandbox holds text; larger uploads would freeze the page for little use. */
export const MAX_UPLOAD_BYTES = 5_000_000;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class FileEdits {
  /** Unsaved text per absolute path; a path is dirty while it is here. */
  readonly drafts = new SvelteMap<string, string>();
  /** The text on disk when the file was last read or saved, to tell a real change from an undo back. */
  private readonly base = new Map<string, string>();

  constructor(private readonly deps: FileEditsDeps) {}

  isDirty(path: string): boolean {
    return this.drafts.has(path);
  }

  /** The editor read `text` from disk for `path`. */
  loaded(path: string, text: string): void {
    this.base.set(path, text);
    if (this.drafts.get(path) === text) this.drafts.delete(path);
  }

  /** The editor's text changed; back to what is on disk is clean again (undo). */
  change(path: string, text: string): void {
    if (this.base.get(path) === text) this.drafts.delete(path);
    else this.drafts.set(path, text);
  }

  /** Forgets every draft (a new sandbox: reset, another scenario). */
  reset(): void {
    this.drafts.clear();
    this.base.clear();
  }

  /** Drops the draft of `path` (the person chose to throw it away). */
  discard(path: string): void {
    this.drafts.delete(path);
  }

  /** Writes the draft of `path` to the sandbox. Nothing to save is fine (ok, no paths). */
  async save(path: string): Promise<EditResult> {
    const text = this.drafts.get(path);
    if (text === undefined) return { ok: true, paths: [] };
    return this.act(async (sb) => {
      await sb.fs.writeFile(path, text);
      this.base.set(path, text);
      if (this.drafts.get(path) === text) this.drafts.delete(path);
      return [path];
    });
  }

  /** A new empty file `name` (may contain folders: `src/a.ts`) under folder `dir`. */
  createFile(dir: string, name: string): Promise<EditResult> {
    return this.act(async (sb) => {
      const path = await this.freshPath(sb, dir, name);
      await sb.fs.writeFile(path, '');
      this.base.set(path, '');
      return [path];
    });
  }

  /** A new folder `name` under `dir` (parents created). */
  createFolder(dir: string, name: string): Promise<EditResult> {
    return this.act(async (sb) => {
      const path = await this.freshPath(sb, dir, name);
      await sb.fs.mkdir(path, { recursive: true });
      return [path];
    });
  }

  /** Renames (or moves, with folders in `newName`) `path` within its folder; drafts move with it. */
  rename(path: string, newName: string): Promise<EditResult> {
    return this.act(async (sb) => {
      const to = await this.freshPath(sb, parentOf(path), newName);
      await sb.fs.rename(path, to);
      this.moveState(path, to);
      return [path, to];
    });
  }

  /** Deletes a file, or a folder with everything in it; its drafts go too. */
  remove(path: string): Promise<EditResult> {
    return this.act(async (sb) => {
      if (path === sb.workdir) throw new Error('the working directory itself cannot be deleted');
      await sb.fs.rm(path, { recursive: true });
      for (const p of [...this.drafts.keys()]) if (p === path || p.startsWith(`${path}/`)) this.drafts.delete(p);
      for (const p of [...this.base.keys()]) if (p === path || p.startsWith(`${path}/`)) this.base.delete(p);
      return [path];
    });
  }

  /**
   * Writes uploaded files under `dir`, replacing files of the same name. Files that are not
   * UTF-8 text or are too big are skipped and named in the error; the others are still written.
   */
  async upload(dir: string, files: Upload[]): Promise<EditResult> {
    const problems: string[] = [];
    const written: string[] = [];
    const done = await this.act(async (sb) => {
      for (const f of files) {
        let path: string;
        try {
          path = resolveInside(sb.workdir, dir, f.path);
        } catch (err) {
          problems.push(`${f.path}: ${errorText(err)}`);
          continue;
        }
        if (f.bytes.byteLength > MAX_UPLOAD_BYTES) {
          problems.push(`${f.path}: ${Math.round(f.bytes.byteLength / 1e6)} MB is over the ${MAX_UPLOAD_BYTES / 1e6} MB limit`);
          continue;
        }
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(f.bytes);
        } catch {
          problems.push(`${f.path}: not UTF-8 text (the sandbox holds text files only)`);
          continue;
        }
        await sb.fs.writeFile(path, text);
        this.base.set(path, text);
        this.drafts.delete(path);
        written.push(path);
      }
      return written;
    });
    if (!done.ok) return done;
    if (problems.length) return { ok: false, error: `${written.length ? `Uploaded ${written.length}; skipped` : 'Nothing uploaded; skipped'} ${problems.join('; ')}.` };
    return done;
  }

  /** Runs one change if editing is allowed, records what it touched, and turns failures into words. */
  private async act(change: (sb: Sandbox) => Promise<string[]>): Promise<EditResult> {
    const blocked = this.deps.blocked();
    const sb = this.deps.sandbox();
    if (blocked || !sb) return { ok: false, error: `Cannot change the files: ${blocked ?? 'no sandbox is running'}.` };
    let paths: string[];
    try {
      paths = await change(sb);
    } catch (err) {
      return { ok: false, error: `${errorText(err)}. Nothing was changed.` };
    }
    if (paths.length) await this.deps.record(paths);
    return { ok: true, paths };
  }

  /** `name` under `dir`, checked to stay inside the working directory and not to exist yet. */
  private async freshPath(sb: Sandbox, dir: string, name: string): Promise<string> {
    const path = resolveInside(sb.workdir, dir, name);
    if (await sb.fs.stat(path)) throw new Error(`${path} already exists; choose another name`);
    return path;
  }

  private moveState(from: string, to: string): void {
    for (const map of [this.drafts, this.base] as Map<string, string>[]) {
      for (const [p, text] of [...map]) {
        if (p !== from && !p.startsWith(`${from}/`)) continue;
        map.delete(p);
        map.set(to + p.slice(from.length), text);
      }
    }
  }
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/**
 * `name` (a relative path, `/`-separated) under `dir`, which must be `workdir` or inside it.
 * Rejects empty names, `.`/`..` segments and absolute names, so nothing lands outside the project.
 */
export function resolveInside(workdir: string, dir: string, name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new Error('the name is empty');
  if (trimmed.startsWith('/')) throw new Error(`"${trimmed}" is absolute; give a name relative to the folder`);
  const parts = trimmed.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '.' || p === '..')) throw new Error(`"${trimmed}" may not contain "." or ".." parts`);
  if (dir !== workdir && !dir.startsWith(`${workdir}/`)) throw new Error(`${dir} is outside ${workdir}`);
  return `${dir}/${parts.join('/')}`;
}
