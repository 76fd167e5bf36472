/**
 * The carriers of a document as plain lines (`source: what`), for the headless runner's note on an
 * untrusted document and for tests: the same list the trust dialog shows, hook bodies verbatim.
 */
import { hookBody, type DocumentCarriers } from './carrier-types.ts';

export function carrierLines(c: DocumentCarriers): string[] {
  const lines: string[] = [];
  for (const s of c.settings) {
    const from = s.file ?? 'scenario settings';
    for (const [event, groups] of Object.entries(s.content.hooks)) {
      for (const g of groups ?? []) for (const h of g.hooks) lines.push(`${from}: ${event} hook (${h.type}, matcher ${g.matcher || '*'}): ${hookBody(h as Record<string, unknown>)}`);
    }
    for (const r of s.content.allow) lines.push(`${from}: allow ${r}`);
    for (const r of s.content.alwaysAllow) lines.push(`${from}: always_allow ${typeof r === 'string' ? r : r.pattern}`);
    for (const d of s.content.additionalDirectories ?? []) lines.push(`${from}: additional directory ${d}`);
    if (s.content.mode) lines.push(`${from}: mode ${s.content.mode}`);
  }
  for (const m of c.mcpServers) {
    const headers = m.headerNames.length ? ` headers ${m.headerNames.join(', ')}` : '';
    lines.push(`.mcp.json: server ${m.name} ${m.url ?? m.transport}${headers}${m.startsOnTrust ? ' (starts once trusted)' : ' (needs approval)'}`);
  }
  for (const t of c.tools) lines.push(`custom tool ${t.name} (${t.kind}): ${t.body}`);
  for (const b of c.broken) lines.push(`${b.file}: does not parse (left out): ${b.problem}`);
  for (const f of c.files) lines.push(`${f.path}: ${f.kind}`);
  return lines;
}
