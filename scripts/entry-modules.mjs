/**
 * Which source modules the page's first screen carries, and why: `node scripts/entry-modules.mjs
 * [zod,yaml,re2js,…]`. It runs the Vite build in memory (nothing is written; ~20 s) and prints
 * - the chunks of the entry's static closure (what the browser fetches before the first paint);
 * - its largest modules, and their size summed by package or source folder;
 * - for each heavy package named (default zod, yaml, re2js, the agent loop, the MCP SDK), the
 *   modules that pull it in, indented by how far they are from it, up to the UI module that starts
 *   the chain (barrels `index.ts` / `light.ts` count as links even though they render no code).
 * Use it to find the import to make lazy; `test/bench/first-screen.ts` measures the result.
 */
import { build } from 'vite';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const targets = (process.argv[2] ?? 'zod,yaml,re2js,loop/agent-loop,@modelcontextprotocol').split(',');
const short = (id) => id.replace(`${root}/`, '').replace(/.*node_modules\//, 'nm:');
// A package name matches only its node_modules files (`zod` is not `src/zod-jitless.ts`); a path with a `/`, our sources.
const isTarget = (id, t) => (id.includes('node_modules') ? id.includes(`node_modules/${t}/`) : t.includes('/') && id.includes(t));

let report = null;
const plugin = {
  name: 'entry-modules',
  generateBundle(_options, bundle) {
    const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    const entry = chunks.find((c) => c.isEntry && c.name === 'index');
    const closure = new Set();
    const queue = [entry.fileName];
    while (queue.length) {
      const f = queue.pop();
      if (closure.has(f)) continue;
      closure.add(f);
      queue.push(...byName.get(f).imports);
    }
    const modules = [];
    for (const f of closure) for (const [id, m] of Object.entries(byName.get(f).modules)) modules.push({ id, len: m.renderedLength, exports: m.renderedExports, chunk: f });
    modules.sort((a, b) => b.len - a.len);
    const live = new Set(modules.filter((m) => m.len > 0).map((m) => m.id));
    const exportsOf = new Map(modules.map((m) => [m.id, m.exports]));
    const chains = {};
    for (const t of targets) {
      const lines = [];
      const starts = modules.filter((m) => m.len > 0 && !m.id.includes('node_modules') && (this.getModuleInfo(m.id)?.importedIds ?? []).some((d) => isTarget(d, t))).map((m) => m.id);
      const seen = new Set(starts);
      const q = starts.map((id) => [id, 0]);
      while (q.length) {
        const [id, depth] = q.shift();
        lines.push(`${'  '.repeat(depth)}${short(id)} {${(exportsOf.get(id) ?? []).slice(0, 6).join(', ')}}`);
        if (/\/src\/(ui\/|App\.svelte|main\.ts)/.test(id)) continue;
        for (const imp of this.getModuleInfo(id)?.importers ?? []) {
          if ((live.has(imp) || /(index|light)\.ts$/.test(imp)) && !seen.has(imp)) {
            seen.add(imp);
            q.push([imp, depth + 1]);
          }
        }
      }
      chains[t] = lines;
    }
    report = { chunks: [...closure].map((f) => [f, byName.get(f).code.length]), modules, chains };
  },
};

await build({ root, logLevel: 'error', build: { write: false }, plugins: [plugin] });
console.log('Entry closure (chunk, bytes):');
for (const [f, n] of report.chunks) console.log(`  ${n}\t${f}`);
console.log(`  ${report.chunks.reduce((a, [, n]) => a + n, 0)}\ttotal`);
console.log('\nLargest modules (rendered bytes):');
for (const m of report.modules.slice(0, 40)) console.log(`  ${m.len}\t${short(m.id)}`);
const groups = new Map();
for (const m of report.modules) {
  const key = m.id.includes('node_modules/') ? m.id.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : short(m.id).split('/').slice(0, 3).join('/');
  groups.set(key, (groups.get(key) ?? 0) + m.len);
}
console.log('\nBy package or source folder:');
for (const [k, v] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${v}\t${k}`);
for (const [t, lines] of Object.entries(report.chains)) {
  console.log(`\nWhat pulls ${t} into the entry (importer below importee, {exports used}):`);
  console.log(lines.length ? lines.map((l) => `  ${l}`).join('\n') : '  nothing: not in the entry');
}
