/**
 * Svelte action: keep a scroll container pinned to its newest content while the user is at the
 * bottom; once they scroll up, leave them where they are until they come back down.
 */
export function stickToBottom(node: HTMLElement): { destroy(): void } {
  let pinned = true;
  const slack = 24;
  const onScroll = () => {
    pinned = node.scrollTop + node.clientHeight >= node.scrollHeight - slack;
  };
  const observer = new MutationObserver(() => {
    if (pinned) node.scrollTop = node.scrollHeight;
  });
  node.addEventListener('scroll', onScroll, { passive: true });
  observer.observe(node, { childList: true, subtree: true, characterData: true });
  return {
    destroy() {
      observer.disconnect();
      node.removeEventListener('scroll', onScroll);
    },
  };
}
