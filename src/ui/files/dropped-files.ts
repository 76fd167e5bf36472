/**
 * Files the person picked (`<input type=file>`) or dropped on the Files panel, as uploads with
 * paths relative to the folder they land in. A dropped folder is walked through the File System
 * entries API, so `src/` arrives as `src/a.ts`, `src/lib/b.ts` …
 */
import type { Upload } from './file-edits.ts';

/** Bounds a dropped folder (a `node_modules` dragged in by mistake must not hang the page). */
const MAX_FILES = 500;

export async function uploadsFromFiles(files: Iterable<File>): Promise<Upload[]> {
  const out: Upload[] = [];
  for (const f of files) out.push({ path: f.webkitRelativePath || f.name, bytes: new Uint8Array(await f.arrayBuffer()) });
  return out;
}

export async function uploadsFromDrop(data: DataTransfer): Promise<Upload[]> {
  const entries = [...data.items].map((i) => i.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e);
  if (!entries.length) return uploadsFromFiles(data.files);
  const out: Upload[] = [];
  for (const entry of entries) await walk(entry, '', out);
  return out;
}

async function walk(entry: FileSystemEntry, prefix: string, out: Upload[]): Promise<void> {
  if (out.length >= MAX_FILES) return;
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, bytes: new Uint8Array(await file.arrayBuffer()) });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns batches until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return;
    for (const child of batch) await walk(child, path, out);
  }
}
