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
 * Only the user lets go of the bottom: a scroll away from it counts when a wheel, a touch, a
 * scrolling key or a press on the container's own scrollbar came first (not a click on a row, nor
 * the stepping shortcuts pressed while a row has focus). Scroll events the page causes itself are not the user
 * leaving — and they come a frame late, when newer rows may have grown the list past the slack:
 * our own scroll's event; the browser clamping the position when the container grows taller (the
 * run's progress line going away at its end) or rows fold away. Taking those for the user, the
 * event list stopped following about one run in four (`run-to-end.e2e.ts` checks it). A fold that
 * opens shows rows already in the DOM, which only an attribute says: observed too.
 */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

export function stickToBottom(node: HTMLElement): { destroy(): void } {
  let pinned = true;
  let frame = 0;
  const slack = 24;
  /** The user started scrolling the container since it was last at the bottom. */
  let userIntent = false;
  const onIntent = (e: Event) => {
    // A press on the container itself is on its scrollbar (rows are its children).
    if (e.type === 'pointerdown' && e.target !== node) return;
    if (e.type === 'keydown' && !SCROLL_KEYS.has((e as KeyboardEvent).key)) return;
    userIntent = true;
  };
  const onScroll = () => {
    if (node.scrollTop + node.clientHeight >= node.scrollHeight - slack) {
      pinned = true;
      userIntent = false;
    } else if (userIntent) pinned = false;
  };
  const observer = new MutationObserver(() => {
    if (!pinned || frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (!pinned) return;
      node.scrollTop = node.scrollHeight;
    });
  });
  const intents = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  for (const type of intents) node.addEventListener(type, onIntent, { passive: true });
  node.addEventListener('scroll', onScroll, { passive: true });
  // `hidden`: a fold that opens shows rows already in the DOM (an attribute change, not a child added).
  observer.observe(node, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['hidden', 'open'] });
  return {
    destroy() {
      observer.disconnect();
      cancelAnimationFrame(frame);
      for (const type of intents) node.removeEventListener(type, onIntent);
      node.removeEventListener('scroll', onScroll);
    },
  };
}
