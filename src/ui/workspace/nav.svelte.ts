import { SvelteMap } from 'svelte/reactivity';

/**
 * "Open the merge view at this workspace", from anywhere (a subagent lane): the side panel
 * watches `request` and switches to its Merge tab. A counter makes a repeated click count again.
 * `resolved` holds what the person chose per conflict (by `conflictKey`), shared so the tab's
 * badge counts only the conflicts still open. Workspace ids are unique per run, so keys of an
 * earlier run never match a new one.
 */
class MergeNav {
  readonly resolved = new SvelteMap<string, string>();

  request = $state<{ workspaceId: string; n: number } | null>(null);

  open(workspaceId: string): void {
    this.request = { workspaceId, n: (this.request?.n ?? 0) + 1 };
  }
}

export const mergeNav = new MergeNav();
