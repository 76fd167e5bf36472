/**
 * Builds the assistant message out of streaming events. Tool input arrives as fragments of JSON
 * (`input_json_delta`) and is parsed once, at `content_block_stop`; input that does not parse is
 * kept as an object holding the raw text, so the history stays valid for the API and the model can
 * be told exactly what was wrong.
 */
import type { AssistantBlock, StopDetails, StopReason, ToolUseBlock, Usage } from '../messages.ts';
import { emptyUsage } from '../messages.ts';
import type { ModelStreamEvent } from '../ports.ts';

/** The key under which unparseable tool input is kept. */
export const RAW_INPUT_KEY = '__invalid_json_input';

export type MalformedToolUse = { id: string; name: string; raw: string; error: string };

type Slot =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; data: string }
  | { kind: 'tool_use'; id: string; name: string; json: string; done: boolean; input?: Record<string, unknown> };

export class StreamAccumulator {
  private readonly slots = new Map<number, Slot>();
  private stopReason: StopReason | null = null;
  private stopDetails: StopDetails | undefined;
  private usage: Usage = emptyUsage();
  readonly malformed: MalformedToolUse[] = [];
  sawMessageStop = false;

  /** Feeds one event; returns the delta it carried, if any, for the trace. */
  add(event: ModelStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.usage = { ...emptyUsage(), ...event.message.usage };
        break;
      case 'content_block_start': {
        const b = event.content_block;
        if (b.type === 'text') this.slots.set(event.index, { kind: 'text', text: b.text });
        else if (b.type === 'thinking')
          this.slots.set(event.index, { kind: 'thinking', thinking: b.thinking, signature: b.signature });
        else if (b.type === 'redacted_thinking')
          this.slots.set(event.index, { kind: 'redacted_thinking', data: b.data });
        else this.slots.set(event.index, { kind: 'tool_use', id: b.id, name: b.name, json: '', done: false });
        break;
      }
      case 'content_block_delta': {
        const slot = this.slots.get(event.index);
        if (!slot) break;
        const d = event.delta;
        if (d.type === 'text_delta' && slot.kind === 'text') slot.text += d.text;
        else if (d.type === 'input_json_delta' && slot.kind === 'tool_use') slot.json += d.partial_json;
        else if (d.type === 'thinking_delta' && slot.kind === 'thinking') slot.thinking += d.thinking;
        else if (d.type === 'signature_delta' && slot.kind === 'thinking') slot.signature += d.signature;
        break;
      }
      case 'content_block_stop': {
        const slot = this.slots.get(event.index);
        if (slot?.kind === 'tool_use') this.finishToolUse(slot);
        break;
      }
      case 'message_delta':
        this.stopReason = event.delta.stop_reason;
        if (event.delta.stop_details) this.stopDetails = event.delta.stop_details;
        // message_delta usage is cumulative for output; input figures may be repeated or absent.
        this.usage = { ...this.usage, ...definedOnly(event.usage) };
        break;
      case 'message_stop':
        this.sawMessageStop = true;
        break;
      default:
        break;
    }
  }

  private finishToolUse(slot: Extract<Slot, { kind: 'tool_use' }>): void {
    slot.done = true;
    const raw = slot.json.trim();
    if (raw === '') {
      slot.input = {};
      return;
    }
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        slot.input = parsed as Record<string, unknown>;
        return;
      }
      this.markMalformed(slot, 'the input must be a JSON object');
    } catch (e) {
      this.markMalformed(slot, e instanceof Error ? e.message : String(e));
    }
  }

  private markMalformed(slot: Extract<Slot, { kind: 'tool_use' }>, error: string): void {
    slot.input = { [RAW_INPUT_KEY]: slot.json };
    this.malformed.push({ id: slot.id, name: slot.name, raw: slot.json, error });
  }

  getStopReason(): StopReason | null {
    return this.stopReason;
  }

  /** The API's `stop_details` (a refusal's category and explanation), when it sent one. */
  getStopDetails(): StopDetails | undefined {
    return this.stopDetails;
  }

  getUsage(): Usage {
    return this.usage;
  }

  /**
   * The assistant blocks so far, in index order. Tool calls whose input never finished streaming
   * (cut by max_tokens or an abort) are left out: a `tool_use` in history must be answered, and a
   * half-written one cannot be run.
   */
  blocks(): AssistantBlock[] {
    const out: AssistantBlock[] = [];
    for (const index of [...this.slots.keys()].sort((a, b) => a - b)) {
      const s = this.slots.get(index)!;
      if (s.kind === 'text') {
        if (s.text !== '') out.push({ type: 'text', text: s.text });
      } else if (s.kind === 'thinking') out.push({ type: 'thinking', thinking: s.thinking, signature: s.signature });
      else if (s.kind === 'redacted_thinking') out.push({ type: 'redacted_thinking', data: s.data });
      else if (s.done && s.input) out.push({ type: 'tool_use', id: s.id, name: s.name, input: s.input });
    }
    return out;
  }

  /** Tool calls that were cut off before their input was complete. */
  unfinishedToolUses(): { id: string; name: string }[] {
    return [...this.slots.values()]
      .filter((s): s is Extract<Slot, { kind: 'tool_use' }> => s.kind === 'tool_use' && !s.done)
      .map((s) => ({ id: s.id, name: s.name }));
  }
}

export function isMalformedInput(block: ToolUseBlock): boolean {
  return Object.prototype.hasOwnProperty.call(block.input, RAW_INPUT_KEY);
}

function definedOnly(u: Partial<Usage>): Partial<Usage> {
  const out: Partial<Usage> = {};
  for (const [k, v] of Object.entries(u)) if (typeof v === 'number') out[k as keyof Usage] = v;
  return out;
}
