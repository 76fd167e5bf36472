/**
 * The loop folder's light entry point: what code outside the harness needs from it before a run
 * (the model clients' error wording) without the loop itself or the tool schemas it attaches.
 */
export { serverWaitNote } from './retry-policy.ts';
