/**
 * Tabs of the app tell each other about sessions on a BroadcastChannel: "session `id` got new
 * events" (a read-only tab follows the writer) and "the list changed". Where the channel does not
 * exist (Node, old browsers) nothing is said, and the other tab refreshes on its next action.
 */
const CHANNEL = 'hp-sessions';

export type SessionBroadcast = { type: 'written'; id: string } | { type: 'list' };

export class SessionChannel {
  private readonly channel: BroadcastChannel | null = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);

  /** Hears what other tabs say (the session manager follows them). */
  listen(onMessage: (msg: SessionBroadcast) => void): void {
    this.channel?.addEventListener('message', (e: MessageEvent<SessionBroadcast>) => onMessage(e.data));
  }

  post(msg: SessionBroadcast): void {
    try {
      this.channel?.postMessage(msg);
    } catch {
      // A closed channel (page going away): the other tab refreshes on its next action.
    }
  }
}
