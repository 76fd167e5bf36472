import { initialSpace, spaceFromSearch, spaceOfTab, withSpace, type Space, type SpaceTab } from './spaces.ts';

/** Where the workspace is remembered for this user (the link's `?ws=` wins over it). */
export const SPACE_STORE = 'hp.workspace';

/**
 * The open workspace and the tab open in each. Switching writes it to localStorage and to the
 * address bar (`?ws=`, replaced, not pushed: a reload or a copied address opens the same layout).
 */
export class SpaceState {
  current = $state<Space>('learn');
  /** The tab open in each workspace: coming back to a workspace finds it as it was left. */
  tabs = $state<Record<Space, SpaceTab>>({ learn: 'scenario', inspect: 'context', build: 'workbench', team: 'team' });

  constructor() {
    if (typeof location === 'undefined') return;
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(SPACE_STORE);
    } catch {
      // Storage off (a private window's policy): the link or Learn.
    }
    this.current = initialSpace(location.search, stored);
    this.#remember();
  }

  get tab(): SpaceTab {
    return this.tabs[this.current];
  }

  switch(space: Space): void {
    this.current = space;
    this.#remember();
  }

  /** Open a tab: its workspace comes with it (a slash command's panel, a lane's merge button). */
  open(tab: SpaceTab): void {
    const space = spaceOfTab(tab);
    this.tabs[space] = tab;
    this.switch(space);
  }

  #remember(): void {
    try {
      localStorage.setItem(SPACE_STORE, this.current);
    } catch {
      // Not remembered; the link still carries it.
    }
    if (spaceFromSearch(location.search) === this.current) return;
    history.replaceState(history.state, '', withSpace(location.href, this.current));
  }
}
