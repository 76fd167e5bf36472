import './zod-jitless.ts';
// Starts the page's sandbox worker before the rest of the entry runs when its script came from the cache (see the module).
import './early-worker-start.ts';
import { mount } from 'svelte';
import App from './App.svelte';
import { teammateLinkOf } from './ui/team/teammate-link.ts';
import { loadDocuments } from './ui/state/documents.ts';
import './ui/theme.css';

// User Timing marks the first-screen bench reads: every module of the entry has run by here.
performance.mark('hp:modules-evaluated');
const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the playground into.');

// A tab opened from the Team tab's link (`?teammate=…`) runs one teammate of the other tab's team.
const teammate = teammateLinkOf(location.search);

/** The loading shell index.html paints while the entry loads: the app takes its place as it mounts. */
const removeShell = () => document.getElementById('boot')?.remove();

let app: ReturnType<typeof mount> | Promise<ReturnType<typeof mount>>;
if (teammate) {
  // Its page (and the team view in it) is loaded only then: the playground's first screen does not carry it.
  // After the document layer: it validates the built-in scenarios as it loads (their schemas, tier patterns with RE2).
  app = loadDocuments()
    .then(() => import('./ui/team/TeammateApp.svelte'))
    .then(({ default: TeammateApp }) => {
      removeShell();
      return mount(TeammateApp, { target, props: { link: teammate } });
    });
} else if (location.hash.startsWith('#s=')) {
  // A share link's scenario is validated as the page is built (its schemas, its tier patterns with
  // RE2): the document layer (loaded on demand, `ui/state/documents.ts`) comes first. A failed load
  // leaves the link unopened with a message (`ScenarioLibrary.fromHash`).
  const mountApp = () => {
    removeShell();
    return mount(App, { target });
  };
  app = loadDocuments().then(mountApp, mountApp);
} else {
  removeShell();
  app = mount(App, { target });
  performance.mark('hp:mounted');
}
export default app;
