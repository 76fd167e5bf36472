/**
 * Workspaces: the page has a few layouts, one for each job (issue 24 §2), instead of one side
 * panel with every tab. This file is the pure part — which tabs each workspace holds, how a
 * workspace is named in a link (`?ws=`), in localStorage (`hp.workspace`) and by key (1–4) — so
 * it can be unit-tested without a DOM.
 */

export const SPACES = ['learn', 'inspect', 'build', 'team'] as const;
export type Space = (typeof SPACES)[number];

export const SPACE_INFO: Readonly<Record<Space, { label: string; key: string; title: string }>> = {
  learn: { label: 'Learn', key: '1', title: 'Learn: conversation, loop diagram, lesson, event list (1)' },
  inspect: { label: 'Inspect', key: '2', title: 'Inspect: context, cache, hooks, memory, sessions beside the selected event (2)' },
  build: { label: 'Build', key: '3', title: 'Build: the editor with the terminal below it; tools, MCP, .claude/, settings and merges (3)' },
  team: { label: 'Team', key: '4', title: 'Team: a lane for every agent, todos and tasks (4)' },
};

/**
 * The side panel's tabs, grouped by the workspace that shows them (in this order). Every tab is in
 * exactly one workspace, and no workspace has more than eight (`ui-workspaces.test.ts`).
 */
export const SPACE_TABS = {
  learn: ['scenario', 'lesson', 'stepper', 'course'],
  inspect: ['context', 'hooks', 'memory', 'sessions', 'skills'],
  // Merge sits by the editor: resolving a conflict is checked in the Files panel.
  build: ['workbench', 'tools', 'mcp', 'settings', 'merge'],
  team: ['team', 'todos', 'tasks'],
} as const satisfies Record<Space, readonly string[]>;

export type SpaceTab = (typeof SPACE_TABS)[Space][number];

/** The workspace that holds a side-panel tab. */
export function spaceOfTab(tab: SpaceTab): Space {
  return SPACES.find((s) => (SPACE_TABS[s] as readonly string[]).includes(tab))!;
}

/** A name from a link or from storage → a workspace, or null when it names none. */
export function parseSpace(value: string | null | undefined): Space | null {
  const v = value?.trim().toLowerCase();
  return (SPACES as readonly string[]).includes(v ?? '') ? (v as Space) : null;
}

/** `?ws=` of a query string (`location.search`), or null. */
export function spaceFromSearch(search: string): Space | null {
  return parseSpace(new URLSearchParams(search).get('ws'));
}

/** The workspace to open with: the link's wins, then the remembered one, then Learn (the course's home). */
export function initialSpace(search: string, stored: string | null): Space {
  return spaceFromSearch(search) ?? parseSpace(stored) ?? 'learn';
}

/** The workspace a key press (1–4) switches to, or null. */
export function spaceOfKey(key: string): Space | null {
  return SPACES.find((s) => SPACE_INFO[s].key === key) ?? null;
}

/** `url` with `?ws=<space>` set (the rest — path, other parameters, the hash — unchanged). */
export function withSpace(url: string, space: Space): string {
  const u = new URL(url);
  u.searchParams.set('ws', space);
  return u.toString();
}
