/**
 * The money of a run, folded from its TraceEvents (live, or a stored log): every request priced
 * by its agent's model, every tool call's share, and one line per agent with its children rolled
 * up into it (subagents and teammates under their parent). Pure: the same events give the same
 * report in the page, the runner and a replay.
 *
 * A tool call's share is what its result costs in the request that first carries it back to the
 * model: that request's input dollars (uncached, cache writes and reads) × the result's share of
 * the request's input tokens (estimated chars/4). A result re-read from the cache in later requests
 * is cheap and is left in those requests' totals.
 */
import { addUsage, emptyUsage, type Usage } from '../messages.ts';
import { estimateTextTokens } from '../context/tokens.ts';
import type { TraceEvent } from '../trace.ts';
import { priceFor, type PriceTable } from './prices.ts';
import { costOfUsage, type CallCost } from './usage-cost.ts';

export type RequestCost = { seq: number; agentId: string; turn: number; model: string; row: string; assumed: boolean; usage: Usage; cost: CallCost };
export type ToolCallCost = { agentId: string; toolUseId: string; name: string; tokens: number; usd: number; turn: number };
export type AgentCostLine = {
  agentId: string;
  /** Who started it (`main` for teammates and top-level subagents); absent for `main`. */
  parentAgentId?: string;
  /** `main`, the subagent type, or the agent id. */
  label: string;
  model: string;
  requests: number;
  usage: Usage;
  /** This agent's own requests. */
  ownUsd: number;
  /** Own plus every descendant's. */
  totalUsd: number;
};
/**
 * A model call that is not an agent's turn, priced as its own line: the memory-extraction call
 * after an exchange (`memory.extracted` with `call`), the call that writes a collapse summary and
 * auto-compact's summary call, `/compact` and the reactive compact included (`compaction.layer`
 * with `summaryCalls`, by its `layer`). It counts in its agent's total, and so against the budget.
 */
export type SideCallKind = 'memory_extraction' | 'collapse_summary' | 'compact_summary';
export type SideCallCost = { seq: number; agentId: string; kind: SideCallKind; model: string; row: string; assumed: boolean; usage: Usage; cost: CallCost };

export type CostReport = {
  prices: { date: string; source: string };
  totalUsd: number;
  requests: RequestCost[];
  toolCalls: ToolCallCost[];
  /** Calls outside the turns (`memory_extraction`, `collapse_summary`, `compact_summary`), each its own line; included in the totals. */
  sideCalls: SideCallCost[];
  /** `main` first, then each child after its parent. */
  agents: AgentCostLine[];
  /** Models the table does not name, priced with its fallback row. */
  assumedModels: string[];
};

type AgentState = { model: string; label: string; parent?: string; requests: number; usage: Usage; usd: number };
type Pending = { toolUseId: string; name: string; tokens: number };

export class CostLedger {
  private readonly agents = new Map<string, AgentState>();
  private readonly requests: RequestCost[] = [];
  private readonly toolCalls: ToolCallCost[] = [];
  private readonly sideCalls: SideCallCost[] = [];
  private readonly pending = new Map<string, Pending[]>();

  constructor(private readonly table: PriceTable) {}

  private agent(id: string): AgentState {
    let a = this.agents.get(id);
    if (!a) {
      a = { model: this.agents.get('main')?.model ?? 'unknown', label: id, ...(id === 'main' ? {} : { parent: 'main' }), requests: 0, usage: emptyUsage(), usd: 0 };
      this.agents.set(id, a);
    }
    return a;
  }

  /** Folds one event in; returns the request's cost when the event was a model response. */
  add(e: TraceEvent): RequestCost | null {
    switch (e.type) {
      case 'run.start':
        this.agent(e.agentId).model = e.model;
        return null;
      case 'subagent.start': {
        const child = this.agent(e.childAgentId);
        child.parent = e.agentId;
        child.label = e.subagentType;
        child.model = e.model;
        return null;
      }
      case 'model.fallback':
        this.agent(e.agentId).model = e.to;
        return null;
      case 'tool.result': {
        const list = this.pending.get(e.agentId) ?? [];
        list.push({ toolUseId: e.toolUseId, name: e.name, tokens: estimateTextTokens(e.content) });
        this.pending.set(e.agentId, list);
        return null;
      }
      case 'model.response':
        return this.price(e);
      case 'memory.extracted':
        if (e.call) this.priceSideCall(e.seq, e.agentId, 'memory_extraction', e.call.model, e.call.usage);
        return null;
      case 'compaction.layer': {
        const kind = e.layer === 'auto_compact' ? 'compact_summary' : 'collapse_summary';
        for (const c of e.summaryCalls ?? []) if (c.usage) this.priceSideCall(e.seq, e.agentId, kind, c.model, c.usage);
        return null;
      }
      default:
        return null;
    }
  }

  private price(e: Extract<TraceEvent, { type: 'model.response' }>): RequestCost {
    const a = this.agent(e.agentId);
    const lookup = priceFor(this.table, a.model);
    const cost = costOfUsage(e.usage, lookup.price);
    a.requests++;
    a.usage = addUsage(a.usage, e.usage);
    a.usd += cost.total;
    const req: RequestCost = { seq: e.seq, agentId: e.agentId, turn: e.turn, model: a.model, row: lookup.row, assumed: lookup.assumed, usage: e.usage, cost };
    this.requests.push(req);
    // The results this request carried back: each gets its share of the request's input dollars.
    const carried = this.pending.get(e.agentId) ?? [];
    this.pending.delete(e.agentId);
    const inputTokens = e.usage.input_tokens + (e.usage.cache_creation_input_tokens ?? 0) + (e.usage.cache_read_input_tokens ?? 0);
    const inputUsd = cost.input + cost.cacheWrite + cost.cacheRead;
    for (const p of carried) {
      const share = inputTokens === 0 ? 0 : Math.min(1, p.tokens / inputTokens);
      this.toolCalls.push({ agentId: e.agentId, toolUseId: p.toolUseId, name: p.name, tokens: p.tokens, usd: inputUsd * share, turn: e.turn });
    }
    return req;
  }

  private priceSideCall(seq: number, agentId: string, kind: SideCallCost['kind'], model: string, usage: Usage): void {
    const lookup = priceFor(this.table, model);
    const cost = costOfUsage(usage, lookup.price);
    this.agent(agentId).usd += cost.total;
    this.sideCalls.push({ seq, agentId, kind, model, row: lookup.row, assumed: lookup.assumed, usage, cost });
  }

  totalUsd(): number {
    let t = 0;
    for (const a of this.agents.values()) t += a.usd;
    return t;
  }

  report(): CostReport {
    const totalOf = (id: string, seen = new Set<string>()): number => {
      if (seen.has(id)) return 0;
      seen.add(id);
      let t = this.agents.get(id)?.usd ?? 0;
      for (const [cid, c] of this.agents) if (c.parent === id) t += totalOf(cid, seen);
      return t;
    };
    const lines: AgentCostLine[] = [];
    const visit = (id: string) => {
      const a = this.agents.get(id);
      if (!a || lines.some((l) => l.agentId === id)) return;
      lines.push({ agentId: id, ...(a.parent ? { parentAgentId: a.parent } : {}), label: a.label, model: a.model, requests: a.requests, usage: a.usage, ownUsd: a.usd, totalUsd: totalOf(id) });
      for (const [cid, c] of this.agents) if (c.parent === id) visit(cid);
    };
    visit('main');
    for (const id of this.agents.keys()) visit(id);
    return {
      prices: { date: this.table.date, source: this.table.source },
      totalUsd: this.totalUsd(),
      requests: [...this.requests],
      toolCalls: [...this.toolCalls],
      sideCalls: [...this.sideCalls],
      agents: lines,
      assumedModels: [...new Set([...this.requests, ...this.sideCalls].filter((r) => r.assumed).map((r) => r.model))],
    };
  }
}

/** The report of a whole event log. */
export function costOfEvents(events: readonly TraceEvent[], table: PriceTable): CostReport {
  const ledger = new CostLedger(table);
  for (const e of events) ledger.add(e);
  return ledger.report();
}
