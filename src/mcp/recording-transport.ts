/**
 * A Transport wrapper that keeps each `tools/call` request and the response to it exactly as
 * they crossed the wire, for the MCP panel's raw JSON-RPC view. It changes nothing it passes on.
 * Calls are matched to their exchanges by tool name and arguments, first in first out, so even
 * concurrent calls each get their own request and response.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Exchange = { request: unknown; response?: unknown };

const callKey = (name: string, args: unknown) => `${name}\u0000${JSON.stringify(args ?? {})}`;

export class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #inner: Transport;
  readonly #byId = new Map<string | number, Exchange>();
  readonly #done = new Map<string, Exchange[]>();

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (message, extra) => {
      const m = message as { id?: string | number; result?: unknown; error?: unknown };
      if (m.id !== undefined && ('result' in m || 'error' in m)) {
        const ex = this.#byId.get(m.id);
        if (ex) {
          this.#byId.delete(m.id);
          ex.response = structuredClone(message);
        }
      }
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion = (version: string): void => this.#inner.setProtocolVersion?.(version);

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: string | number; method?: string; params?: { name?: string; arguments?: unknown } };
    if (m.method === 'tools/call' && m.id !== undefined) {
      const key = callKey(String(m.params?.name), m.params?.arguments);
      const ex: Exchange = { request: structuredClone(message) };
      this.#byId.set(m.id, ex);
      this.#done.set(key, [...(this.#done.get(key) ?? []), ex]);
    }
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** The oldest recorded exchange of a call with this name and these arguments (taken, so the next call gets the next one). */
  take(name: string, args: unknown): Exchange | undefined {
    const list = this.#done.get(callKey(name, args));
    return list?.shift();
  }
}
