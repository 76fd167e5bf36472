/**
 * Issue 21 §6: the page judges Bash commands on just-bash's parse tree, as the CLI does. Its
 * browser bundle exports no `parse`; the build adds the export (`parser-export.ts`). Here the
 * rewrite runs on the real installed bundle, whose `parse` must be the Node entry's parser (same
 * trees for the tricky commands, the differential ones included), the Vite config must carry the
 * plugin, and the page's lazy binding must resolve to the AST parser.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as nodeParse, serialize as nodeSerialize } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { exportJustBashParser, isJustBashBrowserBundle, justBashParserExport } from '../../src/sandbox/justbash/parser-export.ts';
import { shellParserModule } from '../../src/ui/state/run-modules.ts';

const COMMANDS = [
  'cat <<EOF\n$(rm -rf x)\nEOF',
  'echo ${x:-$(rm -rf x)}',
  'echo $(( $(rm -rf x) ))',
  'cat {/etc/passwd,x}',
  "echo $'a\\'; rm -rf x'",
  'echo a;; npm test',
  'f() { rm -rf /; }; f',
  'for f in a b; do rm -rf "$f"; done',
  "cat <<'EOF'\nrm -rf x\nEOF",
  'echo "$(echo ")"; rm -rf x)"',
];

const bundlePath = join(dirname(createRequire(import.meta.url).resolve('just-bash')), 'browser.js');

type ParserModule = { parse: typeof nodeParse; serialize: typeof nodeSerialize };

/** The installed browser bundle as the page's build rewrites it, loaded from beside node_modules. */
async function rewrittenBundle(): Promise<ParserModule> {
  const dir = join(process.cwd(), 'node_modules', '.cache', 'hp-parser-export');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'browser.mjs');
  writeFileSync(file, exportJustBashParser(readFileSync(bundlePath, 'utf8')));
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as ParserModule;
}

describe("just-bash's parser in the page's bundle", () => {
  it('the rewritten browser bundle exports the Node entry’s parse and serialize: the same trees, the same text back', async () => {
    expect(readFileSync(bundlePath, 'utf8')).not.toMatch(/\bas parse\b/);
    const browser = await rewrittenBundle();
    expect(typeof browser.parse).toBe('function');
    for (const command of COMMANDS) {
      let node: unknown;
      let page: unknown;
      try {
        node = nodeParse(command);
      } catch (e) {
        node = { threw: String(e) };
      }
      try {
        page = browser.parse(command);
      } catch (e) {
        page = { threw: String(e) };
      }
      expect(page, command).toEqual(node);
      if (!('threw' in (node as object))) expect(browser.serialize(page as never)).toBe(nodeSerialize(node as never));
    }
  });

  it('only that bundle is rewritten, and a bundle of another shape fails the build', () => {
    const plugin = justBashParserExport();
    expect(isJustBashBrowserBundle(bundlePath)).toBe(true);
    expect(plugin.transform('export const x = 1;', '/x/node_modules/just-bash/dist/bundle/index.js')).toBeNull();
    expect(() => plugin.transform('export{Hp as Bash}', bundlePath)).toThrow(/changed shape/);
  });

  it('the Vite config carries the plugin', async () => {
    const config = (await import('../../vite.config.ts')).default as { plugins: unknown[] };
    expect(config.plugins.flat().map((p) => (p as { name?: string } | null)?.name)).toContain('just-bash-parser-export');
  });

  it('the page binds the AST parser (loaded lazily, from run-modules.ts)', async () => {
    const { justBashShellParser } = await shellParserModule();
    expect(justBashShellParser.name).toBe('just-bash');
    expect((justBashShellParser.parse('echo ${x:-$(rm -rf x)}').commands ?? []).filter((c) => c.origin === 'substitution').map((c) => c.text)).toEqual(['rm -rf x']);
  });
});
