/**
 * Lesson tools for authors: `npm run lessons:sizes` prints the share-link size of every built-in
 * lesson (the `#s=` fragment, which must stay small enough to paste); `npm run lessons -- --log <id>`
 * prints a lesson's headless log with log seqs, to place notes and questions;
 * `npm run lessons -- --record-results <id>` writes into the lesson's JSON the tool results its
 * own replay sees, so a changed rule or hook later shows where the replay diverged.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withRecordedResults } from '../scenarios/results-from-log.ts';
import { FakeClock, SequentialIds } from '../harness/index.ts';
import { createJustBashSandbox } from '../sandbox/justbash/index.ts';
import { encodeScenarioLinkV1, MAX_ENCODED_CHARS } from '../scenarios/codec.ts';
// After the document engines (RE2, yaml): the library validates the built-ins as it loads.
import { library } from '../scenarios/library/after-engines.ts';
import { runLessonHeadless } from '../run/run-lesson.ts';

const { builtinDocs } = library;

function lessonDoc(id: string) {
  const doc = builtinDocs.find((d) => d.id === id);
  if (!doc) throw new Error(`no built-in lesson "${id}"; try one of: ${builtinDocs.map((d) => d.id).join(', ')}`);
  return doc;
}

async function headlessLog(id: string) {
  const sandbox = await createJustBashSandbox();
  try {
    return (await runLessonHeadless(lessonDoc(id), { sandbox, clock: new FakeClock(), ids: new SequentialIds() })).log;
  } finally {
    await sandbox.dispose();
  }
}

async function recordResults(id: string): Promise<void> {
  const dir = fileURLToPath(new URL('../scenarios/library/', import.meta.url));
  const file = readdirSync(dir).find((f) => f.endsWith('.json') && (JSON.parse(readFileSync(dir + f, 'utf8')) as { id?: string }).id === id);
  if (!file) throw new Error(`no JSON file in ${dir} has the id "${id}"`);
  const raw = JSON.parse(readFileSync(dir + file, 'utf8')) as { model: { turns?: Parameters<typeof withRecordedResults>[0] } };
  if (!raw.model.turns) throw new Error(`"${id}" has no scripted turns to record results for`);
  raw.model.turns = withRecordedResults(raw.model.turns, await headlessLog(id));
  writeFileSync(dir + file, `${JSON.stringify(raw, null, 2)}\n`);
  process.stdout.write(`${file}: results recorded for ${raw.model.turns.flatMap((t) => t.content ?? []).filter((b) => 'result' in b && b.result).length} tool calls\n`);
}

async function printLog(id: string): Promise<void> {
  (await headlessLog(id)).forEach((e, i) => {
    if (e.type === 'model.delta') return;
    const extra =
      e.type === 'transition' || e.type === 'run.end' ? e.reason : e.type === 'permission.decision' ? `${e.name} ${e.decision} at ${e.stage}` : 'name' in e ? String(e.name) : '';
    process.stdout.write(`${String(i + 1).padStart(4)}  t${e.turn}  ${e.type}  ${extra}\n`);
  });
}

function printSizes(): void {
  let worst = 0;
  for (const doc of builtinDocs) {
    const chars = encodeScenarioLinkV1(doc).length;
    worst = Math.max(worst, chars);
    process.stdout.write(`${String(chars).padStart(7)} chars  ${doc.id}\n`);
  }
  process.stdout.write(`${builtinDocs.length} lessons; largest link ${worst} chars (limit ${MAX_ENCODED_CHARS})\n`);
  if (worst > MAX_ENCODED_CHARS) process.exitCode = 1;
}

const [flag, id] = process.argv.slice(2);
if (flag === '--sizes') printSizes();
else if (flag === '--log' && id) await printLog(id);
else if (flag === '--record-results' && id) await recordResults(id);
else {
  process.stderr.write('usage: npm run lessons -- --sizes | --log <lesson id> | --record-results <lesson id>\n');
  process.exitCode = 2;
}
