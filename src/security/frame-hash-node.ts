/** The CSP hash source of the user-code frame's inline script, computed in Node (build config, tests, scripts). */
import { createHash } from 'node:crypto';
import { FRAME_SCRIPT } from '../user-code/frame-script.ts';

export const frameScriptHash = (): string => `sha256-${createHash('sha256').update(FRAME_SCRIPT, 'utf8').digest('base64')}`;
