import { describe, expect, it } from 'vitest';
import { CHANNEL, parseFrameReply } from '../../src/user-code/protocol.ts';
import { framePolicy } from '../../src/user-code/frame-script.ts';

describe('the user-code frame protocol ignores what it does not expect', () => {
  it('reads the three replies the frame sends', () => {
    expect(parseFrameReply({ channel: CHANNEL, kind: 'ready' })).toEqual({ channel: CHANNEL, kind: 'ready' });
    expect(parseFrameReply({ channel: CHANNEL, id: 'job-1', kind: 'message', payload: { exitCode: 0 } })).toMatchObject({ kind: 'message', id: 'job-1' });
    expect(parseFrameReply({ channel: CHANNEL, id: 'job-1', kind: 'error', payload: { message: 'boom' } })).toMatchObject({ kind: 'error' });
  });

  it.each([
    ['another channel', { channel: 'devtools', kind: 'ready' }],
    ['an unknown kind', { channel: CHANNEL, id: 'job-1', kind: 'run', payload: { source: 'x' } }],
    ['a message with no id', { channel: CHANNEL, kind: 'message', payload: 1 }],
    ['an error with no text', { channel: CHANNEL, id: 'job-1', kind: 'error', payload: {} }],
    ['an error with a huge text', { channel: CHANNEL, id: 'job-1', kind: 'error', payload: { message: 'x'.repeat(20_000) } }],
    ['a string', 'ready'],
    ['null', null],
  ])('ignores %s', (_label, data) => {
    expect(parseFrameReply(data)).toBeNull();
  });

  it("the frame's own policy forbids every load and connection but its script and blob: workers", () => {
    const p = framePolicy('sha256-abc');
    for (const d of ["default-src 'none'", "connect-src 'none'", "img-src 'none'", "frame-src 'none'", "object-src 'none'", "base-uri 'none'"]) {
      expect(p).toContain(d);
    }
    expect(p).toContain("script-src 'sha256-abc'");
    expect(p).toContain('worker-src blob:');
    expect(p).not.toMatch(/unsafe-(inline|eval)|https?:|\*/);
  });
});
