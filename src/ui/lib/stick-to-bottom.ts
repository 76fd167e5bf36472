/**
 * Svelte action: keep a scroll container pinned to its newest content while the user is at the
 * bottom; once they scroll up, leave them where they are until they come back down.
 *
 * The scroll waits for the next animation frame: reading `scrollHeight` right after a mutation
 * forces the browser to lay out the whole page there and then, once per batch of DOM changes, on
 * top of the layout the frame does anyway (a 226-event run forced ~100 of them, ~0.7 s of a
 * 5 s run on a 2-core machine). In a frame callback the layout is the one the frame needs.
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
