/**
 * The memory side of a run's options (see `run/memory-policy.ts`): which document the run
 * comes from and who wrote its prompt — a prompt equal to one of the document's own prompts (the
 * first, or a pre-filled follow-up) is the document's, whatever button sent it.
 */
import { promptIsDocuments, type RunDocument } from '../../run/memory-policy.ts';
import type { Scenario } from '../../scenarios/schema.ts';

/** The document's prompts: a v1 document's `prompts`, else the runnable scenario's one prompt. */
export function documentPrompts(scenario: Scenario, document: unknown): string[] {
  const prompts = (document as { prompts?: unknown } | null)?.prompts;
  const list = Array.isArray(prompts) ? prompts.filter((p): p is string => typeof p === 'string') : [];
  return [...list, scenario.prompt];
}

export function memoryContext(
  scenario: Scenario,
  document: unknown,
  hash: string,
  prompt: string | undefined,
  sessionId: (() => string | undefined) | null,
): { document?: RunDocument; promptFrom: 'user' | 'document'; memorySessionId?: () => string | undefined } {
  return {
    // No hash yet (a built-in): prepareRun keys the runnable scenario itself.
    ...(hash ? { document: { id: scenario.id, title: scenario.title, hash } } : {}),
    promptFrom: promptIsDocuments(prompt, documentPrompts(scenario, document)) ? 'document' : 'user',
    ...(sessionId ? { memorySessionId: sessionId } : {}),
  };
}
