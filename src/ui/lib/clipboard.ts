/**
 * Copies `text` to the clipboard. Resolves false instead of throwing when the page may not
 * (no permission, headless, plain http): the caller then shows the text to copy by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
