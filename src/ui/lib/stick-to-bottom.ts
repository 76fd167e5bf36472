/**
 * Svelte action: keep a scroll container pinned to its newest content while the user is at the
 * bottom; once they scroll up, leave them where they are until they come back down.
 *
 * The scroll waits for the next animation frame, once however many batches of DOM changes came
 * before it: reading `scrollHeight` in the observer forced a layout of the whole page outside any
 * frame, after each batch. In a frame callback it is the layout that frame does anyway. (Measured
 * on a 226-event run: the layouts stayed about as many and as costly — the frames already
 * followed the batches one to one — so this is about where the work happens, not a speed-up.)
 */
export function stickToBottom(node: HTMLElement): { destroy(): void } {
  let pinned = true;
  let frame = 0;
  const slack = 24;
  const onScroll = () => {
    pinned = node.scrollTop + node.clientHeight >= node.scrollHeight - slack;
  };
  const observer = new MutationObserver(() => {
    if (!pinned || frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (pinned) node.scrollTop = node.scrollHeight;
    });
  });
  node.addEventListener('scroll', onScroll, { passive: true });
  observer.observe(node, { childList: true, subtree: true, characterData: true });
  return {
    destroy() {
      observer.disconnect();
      cancelAnimationFrame(frame);
      node.removeEventListener('scroll', onScroll);
    },
  };
}
