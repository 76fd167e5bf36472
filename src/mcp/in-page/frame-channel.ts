/**
 * In-page servers in the browser: the server's source runs as a job of the user-code sandbox
 * (`src/user-code/`: an opaque-origin frame, a Worker per job, no network, no app storage), and
 * JSON-RPC goes back and forth as job messages. Closing stops the job (even a busy loop).
 */
import type { UserCodeRuntime } from '../../user-code/types.ts';
import type { OpenServerChannel } from './channel.ts';
import { browserServerSource } from './worker-source.ts';

export function frameServerChannel(runtime: UserCodeRuntime): OpenServerChannel {
  return (source, on) => {
    const job = runtime.start(
      { source: browserServerSource(source), data: null },
      { message: (v) => on.message(v), error: (m) => on.error(m.replace(/^Uncaught\s+/, '')) },
    );
    return {
      post: (m) => job.send(m),
      close: () => job.stop(),
    };
  };
}
