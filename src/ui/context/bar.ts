/**
 * The context bar's geometry: the segments of one `context.assembled`, as shares of a scale that
 * always fits the window, the projection, the stored history and the threshold.
 */
import type { AssembledEvent } from './derive.ts';

export type BarPart = 'system' | 'tools' | 'memory' | 'conversation' | 'results';

export type BarSegment = { part: BarPart; label: string; tokens: number; /** 0..100 of the scale. */ width: number };

export type BarModel = {
  segments: BarSegment[];
  projected: number;
  live: number;
  window: number | null;
  /** The scale every width is a share of (the window, or more when something exceeds it). */
  scale: number;
  threshold: { tokens: number; fraction: number; left: number } | null;
  liveWidth: number;
  estimator: string;
};

export const PART_LABELS: Record<BarPart, string> = {
  system: 'System',
  tools: 'Tools',
  memory: 'Memory',
  conversation: 'Messages',
  results: 'Tool results',
};

const pct = (n: number, of: number) => (of <= 0 ? 0 : Math.min(100, (n / of) * 100));

export function barModel(e: AssembledEvent): BarModel {
  const results = (e.toolResults ?? []).reduce((n, r) => n + r.tokens, 0);
  const memory = e.parts.memory ?? 0;
  // Tool results live inside the messages; the rest of the messages is the conversation proper.
  const conversation = Math.max(0, e.parts.messages - results);
  const live = e.truthTotal ?? e.total;
  const window = e.window ?? null;
  const scale = Math.max(window ?? 0, e.total, live, e.threshold?.tokens ?? 0, 1);
  const raw: [BarPart, number][] = [
    ['system', e.parts.system],
    ['tools', e.parts.tools],
    ['memory', memory],
    ['conversation', conversation],
    ['results', Math.min(results, e.parts.messages)],
  ];
  return {
    segments: raw.map(([part, tokens]) => ({ part, label: PART_LABELS[part], tokens, width: pct(tokens, scale) })),
    projected: e.total,
    live,
    window,
    scale,
    threshold: e.threshold ? { ...e.threshold, left: pct(e.threshold.tokens, scale) } : null,
    liveWidth: pct(live, scale),
    estimator: e.estimator ?? 'estimate',
  };
}

/** "12%" of the window (or of the scale when there is no window). */
export function shareText(tokens: number, m: BarModel): string {
  const of = m.window ?? m.scale;
  const p = (tokens / of) * 100;
  return `${p < 1 && p > 0 ? p.toFixed(1) : Math.round(p)}%`;
}
