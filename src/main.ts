import './zod-jitless.ts';
import { mount } from 'svelte';
import App from './App.svelte';
import './ui/theme.css';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the playground into.');

export default mount(App, { target });
