/**
 * Svelte action: a box that scrolls (a long tool result, capped in height) takes keyboard focus, so
 * a keyboard user can scroll it too (axe: scrollable-region-focusable); a box whose content fits
 * stays out of the tab order, so a conversation of short results is not a long row of tab stops.
 *
 * Checked when the box's size changes (a ResizeObserver runs after layout: no forced layout), which
 * includes the first layout and the moment the content reaches the box's maximum height.
 */
export function focusableWhenScrolls(node: HTMLElement): { destroy(): void } {
  const update = () => {
    const scrolls = node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1;
    if (scrolls) node.tabIndex = 0;
    else node.removeAttribute('tabindex');
  };
  const observer = new ResizeObserver(update);
  observer.observe(node);
  return { destroy: () => observer.disconnect() };
}
