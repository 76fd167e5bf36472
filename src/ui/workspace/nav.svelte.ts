/**
 * "Open the merge view at this workspace", from anywhere (a subagent lane): the side panel
 * watches `request` and switches to its Merge tab. A counter makes a repeated click count again.
 */
class MergeNav {
  request = $state<{ workspaceId: string; n: number } | null>(null);

  open(workspaceId: string): void {
    this.request = { workspaceId, n: (this.request?.n ?? 0) + 1 };
  }
}

export const mergeNav = new MergeNav();
