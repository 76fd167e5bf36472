/**
 * The context flags of the headless runner (`--context-window`, `--autocompact-threshold`,
 * `--collapse-threshold`, `--context-settings JSON|FILE`) as an overlay on a scenario's
 * `settings.context`, so a folder run can be tuned like a scenario. The overlay is checked
 * against the pipeline's own schema before anything runs: a bad value or an unknown key is a
 * usage error naming its path (zod strips unknown keys, which would hide a typo).
 */
import { readFile } from 'node:fs/promises';
import type { ContextSettingsInput } from '../harness/context/index.ts';
import type { ContextFlags } from './args.ts';
import { UsageError } from './usage-error.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Keys of `given` that the parsed result dropped: unknown to the schema. */
function unknownKeys(given: Obj, parsed: Obj, at = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(given)) {
    const path = at ? `${at}.${k}` : k;
    if (!(k in parsed)) out.push(path);
    else if (isObj(v) && isObj(parsed[k]) && k !== 'perTool') out.push(...unknownKeys(v, parsed[k], path));
  }
  return out;
}

/** `base` with `over` on top, one level into each layer (`{"microcompact":{"keepRecent":4}}` keeps the layer's other fields). */
export function mergeContextSettings(base: ContextSettingsInput | undefined, over: ContextSettingsInput): ContextSettingsInput {
  const out: Obj = { ...(base ?? {}) };
  for (const [k, v] of Object.entries(over)) out[k] = isObj(v) && isObj(out[k]) ? { ...out[k], ...v } : v;
  return out as ContextSettingsInput;
}

/** The flags as one overlay (`--context-settings`, then the single flags over it); `{}` when none was given. */
export async function contextOverlay(flags: ContextFlags): Promise<ContextSettingsInput> {
  let fromJson: Obj = {};
  if (flags.settings !== undefined) {
    const v = flags.settings;
    const inline = /^\s*[[{]/.test(v);
    let text = v;
    if (!inline) {
      try {
        text = await readFile(v, 'utf8');
      } catch (e) {
        throw new UsageError(`cannot read the --context-settings file ${v}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const where = inline ? '--context-settings' : `--context-settings ${v}`;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${where} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!isObj(json)) throw new UsageError(`${where} must be a JSON object such as {"windowTokens": 100000, "microcompact": {"keepRecent": 4}}`);
    fromJson = json;
  }
  const single: Obj = {
    ...(flags.windowTokens !== undefined ? { windowTokens: flags.windowTokens } : {}),
    ...(flags.autoCompactThreshold !== undefined ? { autoCompactThreshold: flags.autoCompactThreshold } : {}),
    ...(flags.collapseThreshold !== undefined ? { collapse: { threshold: flags.collapseThreshold } } : {}),
  };
  const overlay = mergeContextSettings(fromJson as ContextSettingsInput, single as ContextSettingsInput);
  if (Object.keys(overlay).length === 0) return overlay;
  // Loaded here, not at start-up: zod and the pipeline's schema only for a run that tunes the context.
  const { contextSettingsSchema } = await import('../harness/context/index.ts');
  const parsed = contextSettingsSchema.safeParse(overlay);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new UsageError(`the context settings are not valid:\n${lines.join('\n')}`);
  }
  const unknown = unknownKeys(overlay as Obj, parsed.data as Obj);
  if (unknown.length > 0) throw new UsageError(`the context settings have unknown keys: ${unknown.join(', ')} (see harness/context/settings.ts, or --help)`);
  return overlay;
}
