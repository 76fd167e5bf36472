/**
 * The dollar ceiling of a run (`--max-budget-usd`, the page's budget setting). Checked at the
 * safe point before every model call, retries included: when what the run has spent (its own calls
 * and its subagents' and teammates') plus the next call's estimate would cross the ceiling, the
 * run stops before making the call. The estimate is the next request's input tokens (chars/4) at
 * the uncached base input rate — output is unknown before the call, and a cache read would be
 * cheaper, so it is a floor, not a guess.
 */
import type { TraceEventBody } from '../trace.ts';
import { priceFor, type PriceTable } from './prices.ts';
import type { SummaryBudget } from '../context/summary-fit.ts';
import { costOfUsage, estimateNextCall, formatUsd } from './usage-cost.ts';

export type RunBudget = { maxUsd: number; prices: PriceTable };

export type BudgetStop = { event: Extract<TraceEventBody, { type: 'budget.exceeded' }>; detail: string };

export function checkBudget(budget: RunBudget, spentUsd: number, model: string, nextInputTokens: number): BudgetStop | null {
  const nextEstimateUsd = estimateNextCall(nextInputTokens, priceFor(budget.prices, model).price);
  if (spentUsd + nextEstimateUsd <= budget.maxUsd) return null;
  return {
    event: { type: 'budget.exceeded', maxUsd: budget.maxUsd, spentUsd, nextEstimateUsd, nextInputTokens, model },
    detail: `spent ${formatUsd(spentUsd)} of ${formatUsd(budget.maxUsd)}; the next call (~${nextInputTokens} input tokens at the uncached rate, ${formatUsd(nextEstimateUsd)}) would cross it`,
  };
}

/**
 * What a summary call made before the next request may spend (`context/summary-fit.ts`): the
 * ceiling minus what was spent, input priced at the uncached base rate like the check above.
 */
export function summaryBudgetOf(budget: RunBudget, spentUsd: number): SummaryBudget {
  return {
    remainingUsd: budget.maxUsd - spentUsd,
    inputUsdPerToken: (model) => estimateNextCall(1, priceFor(budget.prices, model).price),
    costOf: (model, usage) => costOfUsage(usage, priceFor(budget.prices, model).price).total,
  };
}
