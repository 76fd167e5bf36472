/**
 * A golden case: one recorded tool call kept as a regression test — the call (tool and input),
 * the project files before it, and what happened (the permission decision, the hooks' verdicts,
 * the result). Plain JSON, saved with the scenario (`settings.golden`).
 *
 * `decision` is the pipeline's answer without a person: `allow`, `deny`, or `ask` (the call
 * reached the permission prompt). `promptAnswer` is what the person said there (`none` for a
 * headless run, with nobody to ask); a re-run answers the prompt the same way, so the results compare.
 */
import { z } from 'zod';

export const goldenObservedSchema = z
  .object({
    decision: z.enum(['allow', 'deny', 'ask']),
    /** The stage that decided (`rules`, `hooks`, `mode`, `prompt`, …). */
    stage: z.string().max(40),
    /** Each hook that ran for the call: event and what it contributed (in event order). */
    hooks: z.array(z.object({ event: z.string().max(60), decision: z.string().max(20) }).strict()).max(50).default([]),
    isError: z.boolean(),
    content: z.string().max(200_000),
  })
  .strict();

export const goldenCaseSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'case ids are lower-case words joined by hyphens'),
    label: z.string().min(1).max(200),
    tool: z.string().min(1).max(64),
    input: z.record(z.string(), z.unknown()),
    /** How the prompt was answered, if the call reached it (`none`: nobody was there to ask); a re-run answers the same. */
    promptAnswer: z.enum(['allow', 'deny', 'none']).default('allow'),
    /** The project's files before the call (relative path → content). */
    files: z.record(z.string(), z.string()).default({}),
    expected: goldenObservedSchema,
  })
  .strict();

export type GoldenObserved = z.output<typeof goldenObservedSchema>;
export type GoldenCase = z.output<typeof goldenCaseSchema>;
export type GoldenCaseInput = z.input<typeof goldenCaseSchema>;

export const goldenCasesSchema = z
  .array(goldenCaseSchema)
  .max(200)
  .superRefine((cases, ctx) => {
    const seen = new Set<string>();
    cases.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `two golden cases have the id "${c.id}"` });
      seen.add(c.id);
    });
  });
