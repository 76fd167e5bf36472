/** What a person can do about a model error, in one sentence (the error itself says what happened). */
import type { ModelError } from '../../harness/index.ts';

export function adviceFor(error: ModelError): string | null {
  switch (error.kind) {
    case 'authentication':
      return 'Check the API key in Settings (it should start with sk-ant-), then send again.';
    case 'permission':
      return 'This key may not have access to the model: check the model id in Settings or your console.';
    case 'not_found':
      return 'Check the model id and the base URL in Settings.';
    case 'connection':
      return 'Check the base URL in Settings and your network connection, then send again.';
    case 'rate_limit':
    case 'overloaded':
      return 'The service is busy: wait a moment and send again.';
    case 'prompt_too_long':
      return 'The conversation is too long for the model: press Reset to start a fresh session.';
    case 'aborted':
      return null;
    default:
      return error.retryable ? 'This may be temporary: send again in a moment.' : null;
  }
}
