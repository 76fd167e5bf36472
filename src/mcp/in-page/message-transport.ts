/**
 * An SDK `Transport` over a `ServerChannel`: the real SDK client talks JSON-RPC to an in-page
 * server as it would to any other. What arrives is checked against the SDK's JSON-RPC schema;
 * anything else is an error ("not JSON-RPC"), never handed to the client. A worker that fails
 * (syntax error, top-level throw, crash) closes the transport with its message kept in
 * `failure`, so pending requests end at once instead of waiting for their timeout.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { OpenServerChannel, ServerChannel } from './channel.ts';

export class MessageTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** Why the server stopped, when it failed. */
  failure: string | null = null;
  #channel: ServerChannel | null = null;
  #closed = false;

  constructor(
    private readonly open: OpenServerChannel,
    private readonly source: string,
  ) {}

  async start(): Promise<void> {
    if (this.#channel) throw new Error('MessageTransport already started');
    this.#channel = this.open(this.source, {
      message: (value) => {
        if (this.#closed) return;
        const parsed = JSONRPCMessageSchema.safeParse(value);
        if (!parsed.success) {
          this.onerror?.(new Error(`the in-page server sent something that is not JSON-RPC: ${preview(value)}`));
          return;
        }
        this.onmessage?.(parsed.data);
      },
      error: (message) => {
        if (this.#closed) return;
        this.failure = message;
        this.onerror?.(new Error(message));
        void this.close();
      },
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed || !this.#channel) throw new Error(this.failure ?? 'the in-page server is not running');
    this.#channel.post(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#channel?.close();
    this.onclose?.();
  }
}

function preview(value: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}
