/**
 * The trace events of teams (joined into `TraceEvent` in `trace.ts`). A teammate's events carry
 * its own agent id, so lanes, stepping and breakpoints (`mailbox.*`) work per agent.
 */
import type { Task } from '../tasks/graph.ts';
import type { TeamMessage } from './message.ts';
import type { TeammateState } from './state.ts';

export type TeamEventBody =
  | {
      /** The lead started a long-lived teammate; its prompt is the first message in its mailbox. */
      type: 'teammate.spawned';
      name: string;
      teammateAgentId: string;
      prompt: string;
      model: string;
      tools: string[];
      /** It claims ready tasks from the board by itself whenever it is idle. */
      autoClaim: boolean;
      isolation: 'shared' | 'overlay';
      /** It will run in another tab: a tab joins as it (its lane waits until one does). */
      inTab?: boolean;
    }
  | {
      /**
       * A tab joined the team as a teammate spawned to run in another tab. In the lead's tab
       * (`side: lead`): the teammate's copy of the working tree was made and sent. In the
       * teammate's tab (`side: teammate`): this tab took that copy, the board and its mail.
       */
      type: 'teammate.joined';
      name: string;
      /** The teammate's tab. */
      tab: string;
      side: 'lead' | 'teammate';
      files: number;
      tasks: number;
      messages: number;
    }
  | {
      /**
       * Nobody joined in time. In the lead's tab (`side: lead`): no tab joined as a teammate
       * spawned `in_tab` within the join timeout, so it is gone and the lead is told by mail. In a
       * teammate's tab (`side: teammate`): this tab asked too late and the lead's tab refused it.
       */
      type: 'teammate.join_timeout';
      name: string;
      side: 'lead' | 'teammate';
      why: string;
      /** The lead's join timeout (known in the lead's tab). */
      timeoutMs?: number;
    }
  | {
      /** A joined teammate's tab stopped beating (it crashed, froze or lost the channel without a `bye`): it is gone. */
      type: 'teammate.lost';
      name: string;
      tab: string;
      /** How long the lead's tab heard nothing from that tab. */
      silentMs: number;
      /** The interval its beats announced. */
      everyMs: number;
      missedBeats: number;
    }
  | {
      /**
       * A note on the wire between tabs was refused on arrival (`sender.ts`): it lacked the
       * team's key, or it spoke for someone who does not run in the tab it came from (mail "from
       * lead" out of another tab, a `bye` in another tab's name, a second tab joining as a name
       * already taken). It was not acted on.
       */
      type: 'teammate.wire_dropped';
      /** The tab the note says it came from. */
      tab: string;
      kind: string;
      /** Who it spoke for, when it said. */
      name?: string;
      why: string;
    }
  | {
      /**
       * The lead's run ended and so did its team: every teammate reached a final state (asked
       * with a shutdown_request first where it was still working or in another tab), and every
       * isolated copy was offered back. Nothing is left running or unmerged without a word.
       */
      type: 'team.ended';
      teammates: { name: string; state: TeammateState; why: string }[];
      /** Copies offered back at the end: what merged, what was refused as a conflict (see the Merge tab). */
      workspaces: { name: string; changed: number; merged: string[]; conflicts: string[] }[];
      /** Shutdown requests nobody answered before the timeout. */
      unanswered: string[];
      /** Tasks of gone teammates put back on the board at the end (their release was still pending). */
      released: string[];
      timeoutMs: number;
    }
  | {
      /** A teammate's state machine moved (idle → working → waiting → done / shut_down). */
      type: 'agent.state';
      name: string;
      from: TeammateState | 'new';
      to: TeammateState;
      why: string;
      /** The task it works on, when it claimed one. */
      taskId?: string;
    }
  | {
      /** A message was appended to `to`'s mailbox file under its lock. */
      type: 'mailbox.sent';
      message: TeamMessage;
      path: string;
      /** Times the sender found the mailbox locked and waited. */
      lockWaits: number;
      /** The recipient's unread messages after this one. */
      unread: number;
      /** What the append found and repaired: a torn last line (kept, the message starts on a fresh line), a read cursor past the end (clamped). */
      problems?: string[];
    }
  | {
      /** An agent read its unread messages (its cursor moved past them). */
      type: 'mailbox.read';
      reader: string;
      messages: TeamMessage[];
      path: string;
      /** Lines of the file that were not messages (kept in the file, reported here), and a read cursor that had to be clamped. */
      problems: string[];
    }
  | {
      /** A lock older than its stale limit was moved aside and taken over (its holder presumably died). */
      type: 'mailbox.lock_recovered';
      lock: string;
      heldBy: string;
      ageMs: number;
      staleMs: number;
      /** Why it counted as stale: held too long, or an owner record that is missing, malformed or from the future (optional: older logs lack it). */
      why?: string;
    }
  | {
      /** A request (shutdown, plan) got no answer in time; the requester is told in its mailbox. */
      type: 'protocol.timeout';
      requestId: string;
      request: 'shutdown_request' | 'plan_submission';
      from: string;
      to: string;
      waitedMs: number;
    }
  | {
      /** An idle teammate claimed a ready, unowned task under the board's lock; `contenders` raced for it in the same round. */
      type: 'task.claimed';
      taskId: string;
      subject: string;
      owner: string;
      contenders: string[];
      lockWaits: number;
      tasks: Task[];
    }
  | {
      /** A gone teammate's in-progress tasks went back to the board after the release timeout. */
      type: 'task.released';
      owner: string;
      taskIds: string[];
      why: string;
      /** How long the tasks waited for their owner to come back. */
      afterMs: number;
      /** The whole board after the release (optional: logs recorded before it carried none). */
      tasks?: Task[];
    };
