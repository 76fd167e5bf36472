/**
 * How the app talks to one running in-page server, whatever runs it: messages out (`post`),
 * messages and a failure in (`on`), and `close` to stop it. Implemented by `frame-channel.ts`
 * (the browser's user-code sandbox) and `node-channel.ts` (a worker thread).
 */
export type ServerChannel = { post(message: unknown): void; close(): void };

export type OpenServerChannel = (source: string, on: { message(value: unknown): void; error(message: string): void }) => ServerChannel;
