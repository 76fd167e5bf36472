/**
 * An agent trying to read what it was told not to: a `Read(...)` deny must hold against every
 * search (grep's three output modes, glob listings), and the project boundary must hold against
 * reads of the home directory and the rest of the machine — through the real loop, tools and
 * just-bash sandbox, with no one to ask (headless).
 */
import { describe, expect, it } from 'vitest';
import { HOME_DIR, WORKDIR } from '../../src/harness/index.ts';
import { mergeSettings, permissionContextOf, type Settings } from '../../src/harness/settings/index.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { drain, ofType, setup } from '../unit/loop-helpers.ts';

const SECRET = 'sk-live-7f3a9c';
const files = {
  '.env': `API_KEY=${SECRET}\n`,
  'config/.env.production': `API_KEY=${SECRET}-prod\n`,
  'secrets/db.txt': `password ${SECRET}\n`,
  'src/app.ts': 'export const key = process.env.API_KEY;\n',
  'README.md': 'Set API_KEY in .env\n',
};
const DENIED_PATH_LINE = /(^|\n)(\.env|config\/\.env\.production|secrets\/db\.txt)(:|\n|$)/;
const DENY = { permissions: { deny: ['Read(.env)', 'Read(.env.*)', 'Read(secrets/**)'] } };

function call(name: string, input: Record<string, unknown>, id: string): ScriptedTurn {
  return { content: [{ type: 'tool_use', id, name, input }] };
}

/** Runs the calls one per turn under `settings` (user scope), headless; returns every tool result's text. */
async function attempt(calls: [string, Record<string, unknown>][], settings: Settings, mode: 'default' | 'bypassPermissions' = 'default') {
  const turns: ScriptedTurn[] = [...calls.map(([n, i], k) => call(n, i, `toolu_${k}`)), { content: [{ type: 'text', text: 'done' }] }];
  const permissions = permissionContextOf(mergeSettings([{ source: 'user', settings }]), WORKDIR, { mode });
  const s = await setup(turns, { files, input: { permissions } });
  await s.deps.sandbox.exec('mkdir -p ~/.ssh && echo "PRIVATE KEY" > ~/.ssh/id_rsa');
  const { events } = await drain(s.input, s.deps);
  return ofType(events, 'tool.result').map((r) => ({ content: r.content, isError: r.isError }));
}

describe('a Read deny holds against searches', () => {
  it.each([
    ['grep content mode', 'grep', { pattern: 'API_KEY|password', output_mode: 'content' }],
    ['grep files_with_matches', 'grep', { pattern: 'sk-live' }],
    ['grep count mode', 'grep', { pattern: 'sk-live', output_mode: 'count' }],
    ['grep with a glob naming the file', 'grep', { pattern: '.', glob: '.env*', output_mode: 'content' }],
    ['grep case-insensitive multiline', 'grep', { pattern: 'api_key=.*', '-i': true, multiline: true, output_mode: 'content' }],
    ['glob listing everything', 'glob', { pattern: '**/*' }],
    ['glob for dotfiles by name', 'glob', { pattern: '**/.env*' }],
    ['glob under the denied directory', 'glob', { pattern: '**/*', path: 'config' }],
  ])('%s leaks nothing of a denied file', async (_label, name, input) => {
    const [r] = await attempt([[name, input]], DENY);
    expect(r!.content).not.toContain(SECRET);
    // No line names a denied file (README.md's own line mentions ".env" in its text, which is fine).
    expect(r!.content).not.toMatch(DENIED_PATH_LINE);
  });

  it('the same searches do find the files when no rule denies them (the test can fail)', async () => {
    const [g, l] = await attempt([['grep', { pattern: 'sk-live', output_mode: 'content' }], ['glob', { pattern: '**/.env*' }]], {});
    expect(g!.content).toContain(SECRET);
    expect(g!.content).toMatch(DENIED_PATH_LINE);
    expect(l!.content).toMatch(DENIED_PATH_LINE);
  });

  it('searches still find what is not denied', async () => {
    const [r] = await attempt([['grep', { pattern: 'API_KEY' }]], DENY);
    expect(r!.content.split('\n').filter((l) => !l.startsWith('Found')).sort()).toEqual(['README.md', 'src/app.ts']);
  });

  it('searching the denied directory itself is refused, with the rule named', async () => {
    const [r] = await attempt([['grep', { pattern: '.', path: 'secrets' }]], DENY);
    expect(r).toMatchObject({ isError: true });
    expect(r!.content).toMatch(/denied.*Read\(secrets\/\*\*\)/);
  });
});

describe('the project boundary holds against reads elsewhere', () => {
  const outside: [string, string, Record<string, unknown>][] = [
    ['read ~/.ssh/id_rsa', 'read', { file_path: '~/.ssh/id_rsa' }],
    ['read by absolute path', 'read', { file_path: `${HOME_DIR}/.ssh/id_rsa` }],
    ['cat ~/.ssh/id_rsa', 'bash', { command: 'cat ~/.ssh/id_rsa' }],
    ['cd home, then cat', 'bash', { command: 'cd && cat .ssh/id_rsa' }],
    ['cat via $HOME', 'bash', { command: 'cat "$HOME/.ssh/id_rsa"' }],
    ['grep the home directory', 'grep', { pattern: 'KEY', path: '~', output_mode: 'content' }],
    ['glob the home directory', 'glob', { pattern: '**/*', path: HOME_DIR }],
    ['glob with an absolute pattern', 'glob', { pattern: `${HOME_DIR}/**/*` }],
    ['ls ../..', 'bash', { command: 'ls -R ../..' }],
  ];
  it.each(outside)('%s is refused headless, even in bypassPermissions', async (_label, name, input) => {
    for (const mode of ['default', 'bypassPermissions'] as const) {
      const [r] = await attempt([[name, input]], {}, mode);
      expect(r).toMatchObject({ isError: true });
      expect(r!.content).toMatch(/outside the working directory/);
      expect(r!.content).not.toContain('PRIVATE KEY');
      expect(r!.content).not.toContain('id_rsa\n');
    }
  });

  it('an additionalDirectories entry lets exactly that directory be read', async () => {
    const [inside, beside] = await attempt(
      [['bash', { command: 'cat ~/.ssh/id_rsa' }], ['read', { file_path: '/etc/hostname' }]],
      { permissions: { additionalDirectories: ['~/.ssh'] } },
    );
    expect(inside).toMatchObject({ isError: false, content: expect.stringContaining('PRIVATE KEY') });
    expect(beside).toMatchObject({ isError: true, content: expect.stringMatching(/outside the working directory/) });
  });
});
