/**
 * The saved model preferences are checked without zod (the first screen reads them before it could
 * load it: `settings.svelte.ts`). This holds the hand-written check to the schema it replaces: on
 * every record below, both accept the same records, keep the same fields, and refuse the same ones.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PREF_FIELDS, readPrefs } from '../../src/ui/state/settings.svelte.ts';

const schema = z.object({
  mode: z.enum(['scripted', 'anthropic']).optional(),
  baseURL: z.string().optional(),
  modelId: z.string().optional(),
  teamsLive: z.boolean().optional(),
  memoryByModel: z.boolean().optional(),
  replayPace: z.enum(['streamed', 'instant']).optional(),
});

const storage = (raw: string) => ({ getItem: (k: string) => (k === 'hp.modelPrefs' ? raw : null) });

/** Each field's good values, and values of every other kind. */
const good: Record<keyof typeof PREF_FIELDS, unknown[]> = {
  mode: ['scripted', 'anthropic'],
  baseURL: ['https://api.anthropic.com', ''],
  modelId: ['claude-sonnet-5-5'],
  teamsLive: [true, false],
  memoryByModel: [false],
  replayPace: ['streamed', 'instant'],
};
const bad: unknown[] = ['fast', 'Scripted', 0, 1, null, [], {}, ['scripted'], 'true'];

function records(): unknown[] {
  const out: unknown[] = [{}, [], [1], null, 'text', 5, true, { other: 1 }, { mode: 'anthropic', other: { deep: true } }];
  for (const [key, values] of Object.entries(good)) {
    for (const v of [...values, ...bad]) out.push({ [key]: v }, { mode: 'anthropic', [key]: v });
  }
  out.push({ mode: 'anthropic', baseURL: 'http://127.0.0.1:9', modelId: 'm', teamsLive: true, memoryByModel: true, replayPace: 'instant' });
  out.push({ mode: 'rm -rf', baseURL: 5 });
  return out;
}

describe('saved preferences without zod', () => {
  it('accept, keep and refuse exactly what the zod schema does', () => {
    const all = records();
    expect(all.length).toBeGreaterThan(100);
    for (const json of all) {
      const r = readPrefs(storage(JSON.stringify(json)));
      const z = schema.safeParse(json);
      expect({ json, accepted: r.notice === null }).toEqual({ json, accepted: z.success });
      if (z.success) expect(r.prefs).toEqual(z.data);
      else {
        expect(r.prefs).toEqual({});
        // The notice names every field zod names (or the root).
        for (const issue of z.error.issues) expect(r.notice).toContain(`${issue.path.join('.') || '(root)'}: `);
      }
    }
  });

  it('the table names every preference the settings save', () => {
    expect(Object.keys(PREF_FIELDS).sort()).toEqual(Object.keys(schema.shape).sort());
  });
});
