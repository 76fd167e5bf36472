/**
 * The SDK client checks tool results against a tool's `outputSchema` with Ajv by default, and Ajv
 * compiles schemas with `new Function` — which the app's Content-Security-Policy forbids (no
 * unsafe-eval). The harness checks every result's shape itself (`harness/mcp/result.ts`), so this
 * validator accepts what the server sends and leaves the judgement there.
 */
import type { jsonSchemaValidator, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export const acceptingValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};
