/**
 * Svelte action: keep a scroll container pinned to its newest content while the user is at the
 * bottom; once they scroll up, leave them where they are until they come back down.
 *
 * The scroll waits for the next animation frame, once however many batches of DOM changes came
 * before it: reading `scrollHeight` in the observer forced a layout of the whole page outside any
 * frame, after each batch. In a frame callback it is the layout that frame does anyway. (Measured
 * on a 226-event run: the layouts stayed about as many and as costly — the frames already
 * followed the batches one to one — so this is about where the work happens, not a speed-up.)
 *
 * Two ways it used to let go of the bottom by itself (the event list then stopped following a run,
 * about one run in four of `delegate-parallel-subagents`; `run-to-end.e2e.ts` checks it): a fold
 * that opens shows rows already in the DOM, which only an attribute says; and the scroll event of
 * our own scroll arrives a frame late, when new rows may have grown the list past the slack.
 */
export function stickToBottom(node: HTMLElement): { destroy(): void } {
  let pinned = true;
  let frame = 0;
  const slack = 24;
  /** Where our last scroll put the container (-1: the user has scrolled away since). */
  let ours = -1;
  const onScroll = () => {
    const atBottom = node.scrollTop + node.clientHeight >= node.scrollHeight - slack;
    // The event of our own scroll comes a frame later, when rows added since may already have
    // grown the list past `slack`: that is not the user leaving the bottom. Only scrolling up is.
    const ownScroll = ours >= 0 && node.scrollTop >= ours - 1;
    if (!atBottom && !ownScroll) ours = -1;
    pinned = atBottom || ownScroll;
  };
  const observer = new MutationObserver(() => {
    if (!pinned || frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (!pinned) return;
      node.scrollTop = node.scrollHeight;
      ours = node.scrollTop;
    });
  });
  node.addEventListener('scroll', onScroll, { passive: true });
  // `hidden`: a fold that opens shows rows already in the DOM (an attribute change, not a child added).
  observer.observe(node, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['hidden', 'open'] });
  return {
    destroy() {
      observer.disconnect();
      cancelAnimationFrame(frame);
      node.removeEventListener('scroll', onScroll);
    },
  };
}
