/**
 * The stages of the permission pipeline, for the explain view of a stage in a stage strip.
 * A full `Record<StageName, …>`: a new stage does not compile without its explanation.
 */
import type { StageName } from '../../harness/permissions/index.ts';

export type StageExplanation = { title: string; means: string; otherwise: string; lesson: string };

export const STAGE_EXPLANATIONS: Record<StageName, StageExplanation> = {
  prefilter: {
    title: 'pre-filter',
    means: 'Before the request is built, tools named by a bare deny rule (`Bash`, `Edit`, `mcp__srv`) are removed from the tool list.',
    otherwise: 'The model would see the tool and waste a turn calling it, only to be denied at the rules stage.',
    lesson: 'tool-hiding',
  },
  validate: {
    title: 'validate',
    means: 'The input is checked against the tool’s schema and its own `validateInput` (e.g. `edit` needs `old_string` to occur in the file).',
    otherwise: 'A call with bad input would run and fail in a less helpful way; here the model gets a clear error to fix.',
    lesson: 'flaky-model',
  },
  tool_check: {
    title: 'tool check',
    means: 'The tool’s own safety check: writes outside the working directory and reads of `.env`-like files ask.',
    otherwise: 'Only rules and the mode would guard those paths — and a permissive mode would let them through.',
    lesson: 'ask-permission',
  },
  hooks: {
    title: 'hooks',
    means: 'PreToolUse hooks run and may allow, deny, ask, or rewrite the input.',
    otherwise: 'With no hook (or an untrusted scenario, whose hooks do not run) the call goes straight to the rules.',
    lesson: 'pretooluse-hook-blocks',
  },
  rules: {
    title: 'rules',
    means: 'Permission rules from every scope, checked deny → ask → allow; the first match wins.',
    otherwise: 'With no matching rule the mode decides.',
    lesson: 'deny-beats-allow',
  },
  mode: {
    title: 'mode',
    means: 'The permission mode decides what no rule settled: read-only calls pass; `acceptEdits` allows edits in the workdir; `plan` and `dontAsk` deny; `default` asks.',
    otherwise: 'Without a mode that settles it, the call goes to the prompt stage.',
    lesson: 'plan-mode',
  },
  prompt: {
    title: 'prompt',
    means: 'A person is asked: allow once, allow for this session, or deny with a message. Headless runs deny.',
    otherwise: 'This is the last stage; it always decides.',
    lesson: 'ask-permission',
  },
};
