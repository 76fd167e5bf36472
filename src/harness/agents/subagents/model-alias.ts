/**
 * Which model a subagent runs on, as Claude Code resolves it: `CLAUDE_CODE_SUBAGENT_MODEL` when
 * set, else the definition's `model` (an alias — `sonnet`, `opus`, `haiku` — names the newest
 * model of that family, or what `ANTHROPIC_DEFAULT_<FAMILY>_MODEL` says; a full id is sent as
 * is), else (nothing, or `inherit`) the parent's model. Pure: the runner reads the environment
 * and passes the overrides in.
 */

/** The ids the aliases stand for (the 5.5 generation, late 2026). */
export const MODEL_ALIAS_IDS = {
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
} as const;

export type ModelAlias = keyof typeof MODEL_ALIAS_IDS;

/** What the environment may override: each alias's target, and every subagent's model. */
export type ModelAliasOverrides = Partial<Record<ModelAlias, string>> & { subagent?: string };

const isAlias = (m: string): m is ModelAlias => Object.hasOwn(MODEL_ALIAS_IDS, m);

/** `ANTHROPIC_DEFAULT_{SONNET,OPUS,HAIKU}_MODEL` and `CLAUDE_CODE_SUBAGENT_MODEL`, where set. */
export function modelAliasesFromEnv(env: Readonly<Record<string, string | undefined>>): ModelAliasOverrides {
  const out: ModelAliasOverrides = {};
  for (const a of Object.keys(MODEL_ALIAS_IDS) as ModelAlias[]) {
    const v = env[`ANTHROPIC_DEFAULT_${a.toUpperCase()}_MODEL`]?.trim();
    if (v) out[a] = v;
  }
  const sub = env.CLAUDE_CODE_SUBAGENT_MODEL?.trim();
  if (sub) out.subagent = sub;
  return out;
}

/** An alias to its id (overrides first); anything else unchanged. */
export function resolveModelAlias(model: string, overrides: ModelAliasOverrides = {}): string {
  return isAlias(model) ? (overrides[model] ?? MODEL_ALIAS_IDS[model]) : model;
}

/** The child's model id and, when it is not simply the definition's or the parent's, why. */
export function subagentModelId(defModel: string | undefined, parentModelId: string, overrides: ModelAliasOverrides = {}): { id: string; note?: string } {
  if (overrides.subagent) {
    const id = resolveModelAlias(overrides.subagent, overrides);
    return { id, note: `CLAUDE_CODE_SUBAGENT_MODEL sets every subagent's model: ${id}` };
  }
  if (!defModel || defModel === 'inherit') return { id: parentModelId };
  if (isAlias(defModel)) return { id: resolveModelAlias(defModel, overrides), note: `model alias "${defModel}" → ${resolveModelAlias(defModel, overrides)}` };
  return { id: defModel };
}
