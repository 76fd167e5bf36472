/**
 * Scenario v1: v0 plus what lessons and recordings need — several prompts, skills, memory files
 * (CLAUDE.md …), a recorded model, breakpoints, notes on steps and "predict the next transition"
 * questions. Built beside v0 (`schema.ts`), reusing its pieces; `migrate.ts` turns any v0 or v1
 * document into a v1 one.
 *
 * Positions (`steps[].atSeq`, `questions[].atSeq`) are log seqs: the 1-based position of an event
 * in the session's log across all runs (see `harness/session/types.ts`), not `TraceEvent.seq`,
 * which restarts every run.
 */
import { z } from 'zod';
import { scriptedTurnSchema } from '../model/scripted/script.ts';
import { scenarioModelSchema, scenarioSchema, scenarioSettingsSchema } from './schema.ts';
import { CHAPTERS, TRANSITION_REASONS } from './vocabulary.ts';

export { CHAPTERS, TRANSITION_REASONS, type Chapter } from './vocabulary.ts';


/** Same path rules as v0's files: relative, no `..`. */
const relativeFilesSchema = scenarioSchema.shape.files;

export const recordedModelSchema = z
  .object({
    kind: z.literal('recorded'),
    /** One turn per model call of the recorded run, in order (tool ids as the live model gave them). */
    turns: z.array(scriptedTurnSchema).min(1),
    /** ISO 8601 time of the recording. */
    recordedAt: z.string().min(1),
    /** The model that answered. */
    modelId: z.string().min(1),
  })
  .strict();

export const scenarioModelV1Schema = z.discriminatedUnion('kind', [...scenarioModelSchema.options, recordedModelSchema]);

const skillName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'skill names are lower-case words joined by hyphens');

export const breakpointsSchema = z
  .object({
    /** Event types to stop at, e.g. `permission.stage`, `compaction.layer`, `hook.run`. */
    eventTypes: z.array(z.string().min(1)).max(100).default([]),
    /** Transition reasons to stop at. */
    transitions: z.array(z.enum(TRANSITION_REASONS)).max(20).default([]),
    /** Tool names whose calls stop the run (at `tool.proposed`). */
    tools: z.array(z.string().min(1)).max(100).default([]),
  })
  .strict();

export const stepNoteSchema = z
  .object({
    /** Log seq of the step. */
    atSeq: z.number().int().min(1).optional(),
    /** Or: the nth event of this type (1-based; default the first). */
    atEventType: z.string().min(1).optional(),
    nth: z.number().int().min(1).optional(),
    /** Markdown, rendered sanitised. */
    markdown: z.string().min(1).max(20_000),
  })
  .strict()
  .refine((s) => (s.atSeq === undefined) !== (s.atEventType === undefined), 'a step note needs exactly one of atSeq or atEventType')
  .refine((s) => s.nth === undefined || s.atEventType !== undefined, 'nth goes with atEventType');

export const questionSchema = z
  .object({
    /** Log seq the question is asked at (before the answer is shown). */
    atSeq: z.number().int().min(1),
    question: z.string().min(1).max(2000),
    choices: z.array(z.string().min(1).max(500)).min(2).max(8),
    /** Index into `choices`. */
    answer: z.number().int().min(0),
    explanation: z.string().max(5000).default(''),
  })
  .strict()
  .refine((q) => q.answer < q.choices.length, { message: 'answer must be the index of one of the choices', path: ['answer'] });


const EXIT_REASONS = ['completed', 'max_turns', 'aborted', 'model_error', 'refusal', 'prompt_blocked', 'hook_stopped', 'max_budget'] as const;

/**
 * What makes a scenario a lesson of the course (all optional for other scenarios): its chapter,
 * a one-sentence goal, what it teaches, how long it takes, how its last run ends, and a "now
 * try" variant that changes one thing so the learner sees the difference.
 */
export const lessonMetaSchema = z
  .object({
    chapter: z.enum(CHAPTERS),
    /** One sentence: what the learner will be able to tell after the lesson. */
    goal: z.string().min(1).max(300),
    /** The mechanisms it shows, a few words each. */
    teaches: z.array(z.string().min(1).max(80)).min(1).max(10),
    minutes: z.number().int().min(1).max(60),
    /** How the lesson's last run ends (a lesson about max_turns ends with it). */
    endsWith: z.enum(EXIT_REASONS).default('completed'),
    nowTry: z
      .object({
        /** Markdown: what to change and what to look for. */
        text: z.string().min(1).max(2000),
        /** Settings keys that replace the lesson's (a rule, a threshold, a hook). */
        settings: scenarioSettingsSchema.partial().optional(),
        /** Or a different script (what the model says). */
        turns: z.array(scriptedTurnSchema).min(1).optional(),
        /**
         * The claim of `text`, checkable: lines of the variant's run signature (`run-signature.ts`,
         * e.g. "bash deny at prompt", "exit max_turns") it has and lacks; a line also matches the
         * longer lines it starts ("auto_compact fired" matches "auto_compact fired at turn 7").
         */
        expect: z
          .object({ has: z.array(z.string().min(1)).optional(), lacks: z.array(z.string().min(1)).optional() })
          .strict()
          .refine((e) => (e.has?.length ?? 0) + (e.lacks?.length ?? 0) > 0, 'a now-try claim names at least one line')
          .optional(),
      })
      .strict()
      .refine((n) => (n.settings === undefined) !== (n.turns === undefined), 'now-try changes exactly one thing: settings or turns'),
  })
  .strict();

export type LessonMeta = z.output<typeof lessonMetaSchema>;

export const scenarioV1Schema = z
  .object({
    version: z.literal(1),
    id: scenarioSchema.shape.id,
    title: scenarioSchema.shape.title,
    description: scenarioSchema.shape.description,
    notes: scenarioSchema.shape.notes,
    /** The prompts of the conversation, in order: the first starts it, each next one follows the previous run. */
    prompts: z.array(z.string().min(1)).min(1).max(50),
    files: relativeFilesSchema,
    /** Skill name → its SKILL.md text (frontmatter `name`, `description`; body loads on use). */
    skills: z.record(skillName, z.string().max(100_000)).default({}),
    /** Memory files (e.g. `CLAUDE.md`, `src/CLAUDE.md`): relative path → content. */
    memoryFiles: relativeFilesSchema,
    model: scenarioModelV1Schema,
    settings: scenarioSchema.shape.settings,
    breakpoints: breakpointsSchema.default({ eventTypes: [], transitions: [], tools: [] }),
    steps: z.array(stepNoteSchema).max(1000).default([]),
    questions: z.array(questionSchema).max(200).default([]),
    /** Course metadata; a scenario without it is not in the course view. */
    lesson: lessonMetaSchema.optional(),
  })
  .strict();

export type ScenarioV1 = z.output<typeof scenarioV1Schema>;
export type ScenarioV1Input = z.input<typeof scenarioV1Schema>;
export type ScenarioV1Settings = z.output<typeof scenarioSettingsSchema>;
export type ScenarioBreakpoints = z.output<typeof breakpointsSchema>;
export type StepNote = z.output<typeof stepNoteSchema>;
export type ScenarioQuestion = z.output<typeof questionSchema>;
