/**
 * axe-core in a page: the serious and critical violations, each with up to five of its nodes —
 * of the whole document, or of the element `scope` selects (a panel under test).
 * The app's CSP refuses inline scripts; code evaluated through the DevTools protocol is exempt.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function seriousViolations(page: Page, scope?: string): Promise<{ id: string; nodes: string[] }[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (sel) => {
    const axe = (window as unknown as { axe: { run: (ctx: Element | Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    const ctx = sel ? document.querySelector(sel) : document;
    if (!ctx) throw new Error(`axe: nothing matches ${sel}`);
    const r = await axe.run(ctx, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  }, scope);
}
