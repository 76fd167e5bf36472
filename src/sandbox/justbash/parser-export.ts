/**
 * A step of `vite dev`'s pre-bundling (the build loads just-bash's ESM build instead, `split-build.ts`,
 * which exports both already): just-bash's browser bundle carries the very parser its Node entry
 * exports as `parse` / `serialize` (one source, one version), but exports neither — so the page's
 * permission check fell back to our own lexer while the sandbox executed with just-bash's parser,
 * the classic two-parsers differential (issue 21 §6). This appends the two exports to
 * `just-bash/dist/bundle/browser.js` as Vite bundles it; `import { parse, serialize } from 'just-bash'`
 * then means the same function in the page as in Node, and `shell-parser.ts` binds unchanged.
 *
 * The names are read from `Bash#transform` (`parse(normalize(script), {maxHeredocSize})`, then
 * `{ script: serialize(ast), ast }`); when the bundle's shape changes, the build fails here
 * rather than shipping a page that silently judges with another parser. Node-side code (the Vite
 * config imports it); pure string work, so a unit test runs it on the real bundle.
 */

const TRANSFORM =
  /transform\(([\w$]+)\)\{[\w$]+\(\1,this\.limits\.maxSourceBytes\);let ([\w$]+)=[\w$]+\(\1\),([\w$]+)=([\w$]+)\(\2,\{maxHeredocSize:this\.limits\.maxHeredocSize\}\)[\s\S]{0,400}?return\{script:([\w$]+)\(\3\),ast:\3,/;

/** The bundle's code with `parse` and `serialize` exported; throws when they cannot be found. */
export function exportJustBashParser(code: string): string {
  const m = TRANSFORM.exec(code);
  if (!m) throw new Error("just-bash's browser bundle changed shape: Bash#transform no longer shows its parse and serialize (src/sandbox/justbash/parser-export.ts)");
  if (/\bas parse\b/.test(code.slice(code.lastIndexOf('export{')))) return code;
  return `${code}\nexport { ${m[4]} as parse, ${m[5]} as serialize };\n`;
}

/** Is `id` the browser bundle of just-bash (the module {@link exportJustBashParser} rewrites)? */
export function isJustBashBrowserBundle(id: string): boolean {
  return /[\\/]just-bash[\\/]dist[\\/]bundle[\\/]browser\.js$/.test(id.split('?')[0]!);
}

/** The Vite plugin (structurally typed: `src/` does not import Vite). */
export function justBashParserExport(): { name: string; enforce: 'pre'; transform(code: string, id: string): { code: string; map: null } | null } {
  return {
    name: 'just-bash-parser-export',
    enforce: 'pre',
    transform: (code, id) => (isJustBashBrowserBundle(id) ? { code: exportJustBashParser(code), map: null } : null),
  };
}
