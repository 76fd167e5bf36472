/**
 * xterm.js, loaded on first use (out of the first page load, like Monaco). Its stylesheet comes
 * with it as a file of our own origin. xterm inserts style elements and sets style attributes,
 * which the app's CSP allows (`style-src 'self' 'unsafe-inline'`); it evaluates no code, so
 * script-src stays without unsafe-eval (the e2e test listens for CSP violations).
 */
type Xterm = typeof import('@xterm/xterm') & { FitAddon: typeof import('@xterm/addon-fit').FitAddon };

let loading: Promise<Xterm> | null = null;

export function loadXterm(): Promise<Xterm> {
  loading ??= (async () => {
    // The fit add-on sizes the terminal to its box (columns and rows from the cell size).
    const [mod, fit] = await Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit'), import('@xterm/xterm/css/xterm.css')]);
    return { ...mod, FitAddon: fit.FitAddon };
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** The terminal's colours from the page's theme variables, so it follows dark and light. */
export function xtermTheme(el: HTMLElement): { background: string; foreground: string; cursor: string; selectionBackground: string } {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { background: v('--panel-2', '#1f242d'), foreground: v('--text', '#e4e8ef'), cursor: v('--accent', '#6ea2ff'), selectionBackground: v('--accent-soft', '#1d2b45') };
}
