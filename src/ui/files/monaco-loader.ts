/**
 * Loads Monaco on first use (kept out of the first page load) and tells it where its workers
 * are. Only the editor and JSON workers ship: `monaco-lite.ts` leaves out the TypeScript, CSS
 * and HTML language services, whose workers were most of the bundle; those files keep their
 * syntax colouring. Since 0.56 the workers live under `editor/` and `language/<id>/`; the
 * editor worker must be returned for any label a language worker does not claim, or Monaco
 * cannot start its workers at all.
 */
type Monaco = typeof import('monaco-editor');

let loading: Promise<Monaco> | null = null;

export function loadMonaco(): Promise<Monaco> {
  loading ??= (async () => {
    const [lite, editorWorker, jsonWorker] = await Promise.all([
      import('./monaco-lite.ts'),
      import('monaco-editor/editor/editor.worker?worker'),
      import('monaco-editor/language/json/json.worker?worker'),
    ]);
    self.MonacoEnvironment = {
      getWorker(_workerId: string, label: string): Worker {
        if (label === 'json') return new jsonWorker.default();
        return new editorWorker.default();
      },
    };
    return lite as unknown as Monaco;
  })();
  // A failed load (e.g. a chunk that did not arrive) may be retried on the next file open.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Monaco's language id for a file name, by extension (plaintext when unknown). */
export function languageFor(monaco: Monaco, path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.')) : '';
  for (const lang of monaco.languages.getLanguages()) {
    if (ext && lang.extensions?.includes(ext)) return lang.id;
    if (lang.filenames?.map((f) => f.toLowerCase()).includes(name)) return lang.id;
  }
  return 'plaintext';
}

/**
 * Monaco's built-in themes with their background taken from the page's panel colour, so the
 * editor sits in the panel instead of looking pasted on. Defined once per theme.
 */
export function themeName(monaco: Monaco, dark: boolean): string {
  const name = dark ? 'hp-dark' : 'hp-light';
  if (!defined.has(name)) {
    const panel = getComputedStyle(document.documentElement).getPropertyValue('--panel').trim();
    monaco.editor.defineTheme(name, {
      base: dark ? 'vs-dark' : 'vs',
      inherit: true,
      rules: [],
      colors: /^#[0-9a-f]{6}$/i.test(panel) ? { 'editor.background': panel } : {},
    });
    defined.add(name);
  }
  return name;
}

const defined = new Set<string>();
