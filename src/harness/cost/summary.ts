/**
 * A cost report as the lines of Claude Code's `/cost` (total cost, API and wall time), plus one
 * line per agent with its children indented under it and the price table's date and source.
 * Used by the runner's `--verbose` summary; a `/cost` command can print the same lines.
 */
import type { CostReport } from './ledger.ts';
import { formatUsd } from './usage-cost.ts';

function fmtDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m ${((ms % 60_000) / 1000).toFixed(1)}s`;
}

export function costSummaryLines(report: CostReport, times: { apiMs: number; wallMs: number }): string[] {
  const lines = [`Total cost:            ${formatUsd(report.totalUsd)}`, `Total duration (API):  ${fmtDuration(times.apiMs)}`, `Total duration (wall): ${fmtDuration(times.wallMs)}`];
  if (report.agents.length > 0) lines.push('Cost by agent:');
  const depth = (id: string | undefined): number => {
    let d = 0;
    for (let a = report.agents.find((x) => x.agentId === id); a?.parentAgentId; a = report.agents.find((x) => x.agentId === a!.parentAgentId)) d++;
    return d;
  };
  for (const a of report.agents) {
    const own = a.totalUsd !== a.ownUsd ? ` (own ${formatUsd(a.ownUsd)})` : '';
    lines.push(`${'  '.repeat(depth(a.agentId) + 1)}${a.label} · ${a.model}: ${a.requests} request(s), ${formatUsd(a.totalUsd)}${own}`);
  }
  for (const c of report.sideCalls) lines.push(`  ${c.kind} · ${c.model}: ${formatUsd(c.cost.total)}`);
  if (report.assumedModels.length > 0) lines.push(`  (${report.assumedModels.join(', ')} not in the price table: priced with its fallback row)`);
  lines.push(`Prices of ${report.prices.date}: ${report.prices.source}`);
  return lines;
}
