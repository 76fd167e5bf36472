/**
 * Tool JSON schemas are computed once per zod schema (issue 23 §3: `z.toJSONSchema` re-run each
 * time a factory rebuilt its tool was most of the loop's fixed per-turn CPU).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinTools, buildTool, toolSchemaOf } from '../../src/harness/tools/index.ts';
import { inputJsonSchemaOf } from '../../src/harness/tools/tool.ts';

describe('tool JSON schemas', () => {
  it('rebuilding the built-in tools reuses each input_schema object (no second z.toJSONSchema)', () => {
    const a = builtinTools();
    const b = builtinTools();
    for (let i = 0; i < a.length; i++) {
      expect(b[i]!.inputJsonSchema).toBe(a[i]!.inputJsonSchema);
      expect(toolSchemaOf(b[i]!).input_schema).toBe(toolSchemaOf(a[i]!).input_schema);
    }
  });

  it('is the API shape: an object schema without zod’s $schema marker, and it cannot be edited through one tool', () => {
    const schema = z.strictObject({ path: z.string().describe('where') });
    const tool = buildTool({ name: 't', description: 'd', inputSchema: schema, call: async () => ({ content: '' }) });
    expect(tool.inputJsonSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string', description: 'where' } }, required: ['path'], additionalProperties: false });
    expect('$schema' in tool.inputJsonSchema).toBe(false);
    expect(Object.isFrozen(tool.inputJsonSchema)).toBe(true);
    expect(inputJsonSchemaOf(schema)).toBe(tool.inputJsonSchema);
  });

  it('two different schemas get their own JSON schemas', () => {
    const one = inputJsonSchemaOf(z.object({ a: z.string() }));
    const two = inputJsonSchemaOf(z.object({ b: z.number() }));
    expect(one).not.toBe(two);
    expect(Object.keys((two as unknown as { properties: object }).properties)).toEqual(['b']);
  });
});
