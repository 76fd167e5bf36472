/** Light / dark theme: follows the system until the user toggles, then remembers the choice. */
export type Theme = 'light' | 'dark';

const STORE = 'hp.theme';

function systemTheme(): Theme {
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export class ThemeState {
  current = $state<Theme>('light');

  constructor() {
    const saved = localStorage.getItem(STORE);
    this.current = saved === 'dark' || saved === 'light' ? saved : systemTheme();
    this.apply();
    // Follow the system only while the user has not chosen.
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      if (!localStorage.getItem(STORE)) {
        this.current = systemTheme();
        this.apply();
      }
    });
  }

  toggle(): void {
    this.current = this.current === 'dark' ? 'light' : 'dark';
    localStorage.setItem(STORE, this.current);
    this.apply();
  }

  private apply(): void {
    document.documentElement.dataset.theme = this.current;
  }
}
