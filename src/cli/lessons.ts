/**
 * Lesson tools for authors: `npm run lessons:sizes` prints the share-link size of every built-in
 * lesson (the `#s=` fragment, which must stay small enough to paste); `npm run lessons -- --log <id>`
 * prints a lesson's headless log with log seqs, to place notes and questions.
 */
import { FakeClock, SequentialIds } from '../harness/index.ts';
import { createJustBashSandbox } from '../sandbox/justbash/index.ts';
import { encodeScenarioLinkV1, MAX_ENCODED_CHARS } from '../scenarios/codec.ts';
import { builtinDocs } from '../scenarios/library/index.ts';
import { runLessonHeadless } from '../scenarios/run-lesson.ts';

async function printLog(id: string): Promise<void> {
  const doc = builtinDocs.find((d) => d.id === id);
  if (!doc) throw new Error(`no built-in lesson "${id}"; try one of: ${builtinDocs.map((d) => d.id).join(', ')}`);
  const sandbox = await createJustBashSandbox();
  try {
    const { log } = await runLessonHeadless(doc, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    log.forEach((e, i) => {
      if (e.type === 'model.delta') return;
      const extra =
        e.type === 'transition' || e.type === 'run.end' ? e.reason : e.type === 'permission.decision' ? `${e.name} ${e.decision} at ${e.stage}` : 'name' in e ? String(e.name) : '';
      process.stdout.write(`${String(i + 1).padStart(4)}  t${e.turn}  ${e.type}  ${extra}\n`);
    });
  } finally {
    await sandbox.dispose();
  }
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
else {
  process.stderr.write('usage: npm run lessons -- --sizes | --log <lesson id>\n');
  process.exitCode = 2;
}
