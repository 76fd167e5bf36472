import { describe, expect, it } from 'vitest';
import { SequentialIds } from '../../src/harness/clock.ts';
import type { Message } from '../../src/harness/messages.ts';
import type { MemoryEntry } from '../../src/harness/ports.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { InMemoryMemoryStore } from '../../src/storage/memory/memory-store.ts';
import {
  EXTRACT_SYSTEM,
  extractByModel,
  extractByRules,
  lastExchange,
  normalizeFact,
  parseFacts,
  rememberExchange,
} from '../../src/harness/memory/index.ts';

const existing = (content: string, id = 'mem_old'): MemoryEntry => ({ id, content, source: 'explicit', createdAt: 1, updatedAt: 1 });
const base = (known: MemoryEntry[] = []) => ({ existing: known, ids: new SequentialIds(), now: 500 });

const history: Message[] = [
  { role: 'user', content: 'first task' },
  { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  { role: 'user', content: 'We use pnpm here. Fix the lint errors.' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'pnpm lint' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '2 errors' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'Fixed both.' }] },
];

describe('rules extraction', () => {
  it('keeps "remember:" and "Remember that" lines of the prompt as explicit memories', () => {
    const { entries, event } = extractByRules({
      ...base(),
      prompt: 'Fix the bug.\nremember: the API uses snake_case\n  Remember that tests live in spec/\nI remember nothing else',
    });
    expect(entries).toEqual([
      { id: 'mem_0001', content: 'The API uses snake_case', source: 'explicit', createdAt: 500, updatedAt: 500 },
      { id: 'mem_0002', content: 'Tests live in spec/', source: 'explicit', createdAt: 500, updatedAt: 500 },
    ]);
    expect(event).toEqual({
      type: 'memory.extracted',
      via: 'rules',
      added: entries.map((e) => ({ id: e.id, content: e.content, source: e.source })),
      duplicates: [],
      problems: [],
    });
  });

  it('keeps "# memory:" lines of notes as project_file memories', () => {
    const { entries } = extractByRules({ ...base(), notes: ['# Project\n# memory: deploys go through CI only\n## memory: not this\nplain'] });
    expect(entries.map((e) => [e.content, e.source])).toEqual([['deploys go through CI only', 'project_file']]);
  });

  it('dedupes against existing entries and within the batch, in normal form', () => {
    expect(normalizeFact('  The API uses  "snake_case".  ')).toBe('the api uses snake_case');
    const { entries, event } = extractByRules({
      ...base([existing('the API uses snake_case.')]),
      prompt: 'remember: The API uses snake_case\nremember: Port is 8080\nremember: port is 8080!',
    });
    expect(entries.map((e) => e.content)).toEqual(['Port is 8080']);
    expect(event.duplicates).toEqual([
      { content: 'The API uses snake_case', of: 'mem_old' },
      { content: 'Port is 8080!', of: 'mem_0001' },
    ]);
  });
});

describe('model extraction', () => {
  it('parses JSON lines defensively: fences, bullets, arrays, strings, junk reported', () => {
    const reply = [
      '```json',
      '{"fact": "The project uses pnpm.", "tags": ["tooling", 3]}',
      '- {"content": "Lint runs with pnpm lint"}',
      '[{"fact": "CI is GitHub Actions"}, {"nope": 1}]',
      '"A bare JSON string fact"',
      'Here are the facts I found:',
      '{"fact": ""}',
      '```',
    ].join('\n');
    const { facts, problems } = parseFacts(reply);
    expect(facts).toEqual([
      { content: 'The project uses pnpm.', tags: ['tooling'] },
      { content: 'Lint runs with pnpm lint' },
      { content: 'CI is GitHub Actions' },
      { content: 'A bare JSON string fact' },
    ]);
    expect(problems).toEqual(['line 4: no "fact" text', 'line 6: not JSON, ignored: Here are the facts I found:', 'line 7: no "fact" text']);
    expect(parseFacts('NONE')).toEqual({ facts: [], problems: [] });
  });

  it('asks the model about the last exchange only, with no tools, and keeps new facts as "extracted"', async () => {
    const client = createScriptedClient([
      { content: [{ type: 'text', text: '{"fact": "The project uses pnpm."}\n{"fact": "lint runs with pnpm lint"}' }] },
    ]);
    const { entries, event } = await extractByModel(client, {
      ...base([existing('Lint runs with pnpm lint')]),
      model: 'claude-test',
      messages: history,
      signal: new AbortController().signal,
    });
    expect(entries.map((e) => [e.content, e.source])).toEqual([['The project uses pnpm.', 'extracted']]);
    expect(event.via).toBe('model');
    expect(event.duplicates).toEqual([{ content: 'lint runs with pnpm lint', of: 'mem_old' }]);
    const req = client.requests[0]!;
    expect(req.system).toBe(EXTRACT_SYSTEM);
    expect(req.tools).toBeUndefined();
    const sent = req.messages[0]!.content as string;
    expect(sent).toContain('User: We use pnpm here.');
    expect(sent).toContain('Assistant called Bash {"command":"pnpm lint"}');
    expect(sent).toContain('Tool result: 2 errors');
    expect(sent).not.toContain('first task');
  });

  it('a failed call is a problem and no entries, not an exception', async () => {
    const client = createScriptedClient([{ fault: { kind: 'http', status: 529, errorType: 'overloaded_error' } }]);
    const r = await extractByModel(client, { ...base(), model: 'm', messages: history, signal: new AbortController().signal });
    expect(r.entries).toEqual([]);
    expect(r.event.problems[0]).toMatch(/^the extraction call failed/);
  });

  it('a cut stream keeps nothing', async () => {
    const client = createScriptedClient([{ content: [{ type: 'text', text: '{"fact": "half"}' }], fault: { kind: 'truncate', afterEvents: 3 } }]);
    const r = await extractByModel(client, { ...base(), model: 'm', messages: history, signal: new AbortController().signal });
    expect(r.entries).toEqual([]);
    expect(r.event.problems).toHaveLength(1);
  });

  it('lastExchange starts at the last prompt, not at a tool result', () => {
    expect(lastExchange(history)).toEqual(history.slice(2));
  });
});

describe('rememberExchange', () => {
  it('extracts by rules from the last prompt and saves to the store; a second time finds duplicates', async () => {
    const store = new InMemoryMemoryStore();
    const ids = new SequentialIds();
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'remember: the staging URL is staging.local' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
    ];
    const first = await rememberExchange({ store, messages, ids, now: 10 });
    expect(first.added.map((a) => a.content)).toEqual(['The staging URL is staging.local']);
    expect((await store.list()).map((e) => e.content)).toEqual(['The staging URL is staging.local']);
    const again = await rememberExchange({ store, messages, ids, now: 20 });
    expect(again.added).toEqual([]);
    expect(again.duplicates).toHaveLength(1);
    expect(await store.list()).toHaveLength(1);
  });

  it('extracts by model when given one', async () => {
    const store = new InMemoryMemoryStore();
    const client = createScriptedClient([{ content: [{ type: 'text', text: '{"fact": "Uses pnpm"}' }] }]);
    const ev = await rememberExchange({
      store,
      messages: history,
      ids: new SequentialIds(),
      now: 1,
      model: { client, model: 'm', signal: new AbortController().signal },
    });
    expect(ev.via).toBe('model');
    expect((await store.list()).map((e) => [e.content, e.source])).toEqual([['Uses pnpm', 'extracted']]);
  });
});
