/** One-line summaries of the MCP events for the event stream (`ui/events/summary.ts` falls through to here). */
import type { TraceEvent } from '../../harness/index.ts';

export function summarizeMcpEvent(e: TraceEvent): string | null {
  switch (e.type) {
    case 'mcp.connect':
      return `${e.server} connected · ${e.transport}${e.serverName ? ` · ${e.serverName}${e.serverVersion ? ` ${e.serverVersion}` : ''}` : ''} · ${e.ms} ms`;
    case 'mcp.tools':
      return `${e.server}: ${e.tools.map((t) => t.name).join(', ') || 'no tools'}${e.skipped.length ? ` · ${e.skipped.length} left out` : ''}`;
    case 'mcp.call':
      return `${e.name} · ${!e.ok ? 'failed' : e.isError ? 'error result' : 'ok'} · ${e.ms} ms`;
    case 'mcp.error':
      return `${e.server} (${e.phase}${e.tool ? `, ${e.tool}` : ''}): ${e.message.length > 90 ? `${e.message.slice(0, 89)}…` : e.message}`;
    default:
      return null;
  }
}
