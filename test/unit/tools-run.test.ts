import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolsFixture } from './tools-fixture.ts';
import {
  buildTool,
  builtinTools,
  executeToolCall,
  findTool,
  runToolCall,
  toolSchemaOf,
  validateToolCall,
} from '../../src/harness/tools/index.ts';

describe('builtinTools and findTool', () => {
  it('gives fresh instances in a stable order', () => {
    const a = builtinTools();
    const b = builtinTools();
    expect(a.map((t) => t.name)).toEqual(['bash', 'read', 'write', 'edit', 'glob', 'grep', 'revert']);
    expect(a[0]).not.toBe(b[0]);
    expect(findTool(a, 'grep')?.name).toBe('grep');
    expect(findTool(a, 'Grep')).toBeUndefined();
  });

  it('derives strict object schemas with descriptions for the API', () => {
    for (const tool of builtinTools()) {
      const schema = toolSchemaOf(tool);
      expect(schema.description.length, tool.name).toBeGreaterThan(200);
      expect(schema.input_schema.type).toBe('object');
      expect(schema.input_schema.additionalProperties, tool.name).toBe(false);
      expect(JSON.stringify(schema.input_schema)).not.toContain('$schema');
    }
    const read = toolSchemaOf(findTool(builtinTools(), 'read')!).input_schema as { required?: string[] };
    expect(read.required).toEqual(['file_path']);
  });
});

describe('runToolCall', () => {
  it('lists the tools that exist when the name is unknown', async () => {
    const f = await toolsFixture();
    const r = await f.run('Read', { file_path: 'a' });
    expect(r.validation.ok).toBe(false);
    expect(r.outcome).toEqual({
      content: 'No tool is called "Read". The tools you can use are: bash, read, write, edit, glob, grep, revert.',
      isError: true,
    });
  });

  it('names each bad field and what was expected', async () => {
    const f = await toolsFixture();
    const r = await f.run('edit', { file_path: 42, new_string: 'x', replace_all: 'yes', extra: 1 });
    expect(r.validation).toEqual({ ok: false, error: r.outcome.content });
    expect(r.outcome.content).toBe(
      [
        'Invalid input for edit:',
        '- file_path: expected string, got number 42.',
        '- old_string: missing; it is required (string).',
        '- replace_all: expected boolean, got the string "yes".',
        '- (the input): unknown field "extra"; remove it or check the spelling.',
        'Fix these and call it again.',
      ].join('\n'),
    );
    const notObject = await f.run('bash', 'ls');
    expect(notObject.outcome.content).toContain('- (the input): expected object, got the string "ls".');
  });

  it('reports validateInput failures as validation errors, without calling the tool', async () => {
    const f = await toolsFixture({ 'a.txt': 'x\n' });
    const r = await f.run('write', { file_path: 'a.txt', content: 'y' });
    expect(r.validation.ok).toBe(false);
    expect(r.outcome.isError).toBe(true);
    expect(await f.file('a.txt')).toBe('x\n');
  });

  it('gives the tool the tool_use id in its context', async () => {
    const f = await toolsFixture();
    const seen: (string | undefined)[] = [];
    const probe = buildTool({
      name: 'probe',
      description: 'records its context',
      inputSchema: z.object({}),
      validateInput: async (_i, ctx) => {
        seen.push(ctx.toolUseId);
        return { ok: true };
      },
      call: async (_i, ctx) => {
        seen.push(ctx.toolUseId);
        return { content: 'ok' };
      },
    });
    const r = await runToolCall(probe, { id: 'toolu_x', name: 'probe', input: {} }, f.ctx, [probe]);
    expect(r).toEqual({ outcome: { content: 'ok' }, validation: { ok: true } });
    expect(seen).toEqual(['toolu_x', 'toolu_x']);
  });

  it('reports a thrown error as a bug in the tool', async () => {
    const f = await toolsFixture();
    const broken = buildTool({
      name: 'broken',
      description: 'throws',
      inputSchema: z.object({}),
      call: async () => {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    const r = await runToolCall(broken, { id: 't1', name: 'broken', input: {} }, f.ctx, [broken]);
    expect(r.validation.ok).toBe(true);
    expect(r.outcome.isError).toBe(true);
    expect(r.outcome.content).toBe(
      'The broken tool failed unexpectedly (a bug in the tool, not in your call): TypeError: cannot read properties of undefined. Try another way to do this.',
    );

    const badCheck = buildTool({
      name: 'bad-check',
      description: 'throws in validateInput',
      inputSchema: z.object({}),
      validateInput: async () => {
        throw new Error('boom');
      },
      call: async () => ({ content: 'never' }),
    });
    const v = await runToolCall(badCheck, { id: 't2', name: 'bad-check', input: {} }, f.ctx, [badCheck]);
    expect(v.validation.ok).toBe(false);
    expect(v.outcome.content).toMatch(/failed while checking its input.*Error: boom/);
  });

  it('cuts a result longer than maxResultChars to head + tail', async () => {
    const f = await toolsFixture();
    const chatty = buildTool({
      name: 'chatty',
      description: 'talks a lot',
      inputSchema: z.object({}),
      maxResultChars: 1000,
      call: async () => ({ content: 'H'.repeat(3000) + 'T'.repeat(3000) }),
    });
    const r = await runToolCall(chatty, { id: 't1', name: 'chatty', input: {} }, f.ctx, [chatty]);
    expect(r.outcome.content.startsWith('H'.repeat(600) + '\n')).toBe(true);
    expect(r.outcome.content.endsWith('\n' + 'T'.repeat(400))).toBe(true);
    expect(r.outcome.content).toContain('5,000 characters cut from the middle; 6,000 in all');
  });

  it('splits into validateToolCall and executeToolCall for the loop', async () => {
    const f = await toolsFixture({ 'a.txt': 'hello\n' });
    const tools = builtinTools();
    const checked = await validateToolCall(tools, { id: 't1', name: 'read', input: { file_path: 'a.txt' } }, f.ctx);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.tool.name).toBe('read');
    expect(checked.tool.isConcurrencySafe(checked.input)).toBe(true);
    expect(await executeToolCall(checked, { ...f.ctx, toolUseId: 't1' })).toEqual({ content: '     1\thello' });
    const missing = await validateToolCall(tools, { id: 't2', name: 'nope', input: {} }, f.ctx);
    expect(missing).toEqual({ ok: false, message: expect.stringMatching(/^No tool is called "nope"/) });
  });
});
