/**
 * The README's course paragraph says how many lessons there are, in how many chapters and in which
 * order: it once said 26 (then 45) while the library had more. It is checked against the library.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { courseChapters } from '../../src/scenarios/course.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const course = readme.slice(readme.indexOf('## The course'));

describe('README: the course', () => {
  it('gives the number of lessons and chapters the library has', () => {
    const m = /\((\d+) today, in (\d+) chapters\)/.exec(course);
    expect(m, 'the course paragraph says "(N today, in M chapters)"').not.toBeNull();
    expect(Number(m![1])).toBe(builtinDocs.filter((d) => d.lesson).length);
    expect(Number(m![2])).toBe(courseChapters().length);
  });

  it('names the chapters in course order', () => {
    const order = /— (the loop(?: → [^—]+?)+) —/.exec(course)?.[1]?.split(/\s*→\s*/) ?? [];
    const words = (t: string) => t.toLowerCase().replace(/^the /, '').split(/[^a-z]+/)[0];
    expect(order.map(words)).toEqual(courseChapters().map((c) => words(c.title)));
  });
});
