/**
 * A deliberately small markdown reader for lesson notes and model replies: headings, paragraphs, bullet and
 * numbered lists, fenced code, and inline `code` / **bold** / *italic*. It returns data, not
 * HTML; the view renders it as text nodes, so nothing in a note (or a shared link) can inject
 * markup or script.
 */
export type Inline = { kind: 'text' | 'code' | 'strong' | 'em'; text: string };

export type Block =
  | { kind: 'heading'; level: number; inline: Inline[] }
  | { kind: 'para'; inline: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; text: string };

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const tok = m[0];
    const at = m.index ?? 0;
    if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
    if (tok.startsWith('`')) out.push({ kind: 'code', text: tok.slice(1, -1) });
    else if (tok.startsWith('**')) out.push({ kind: 'strong', text: tok.slice(2, -2) });
    else out.push({ kind: 'em', text: tok.slice(1, -1) });
    last = at + tok.length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

export function parseNotes(src: string): Block[] {
  const blocks: Block[] = [];
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  let para: string[] = [];
  const endPara = () => {
    if (para.length) blocks.push({ kind: 'para', inline: parseInline(para.join(' ')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      endPara();
      const code: string[] = [];
      while (++i < lines.length && !lines[i]!.startsWith('```')) code.push(lines[i]!);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (heading) {
      endPara();
      blocks.push({ kind: 'heading', level: heading[1]!.length, inline: parseInline(heading[2]!) });
    } else if (item) {
      endPara();
      const ordered = item[2] !== undefined;
      const prev = blocks.at(-1);
      const inline = parseInline(item[3]!);
      if (prev?.kind === 'list' && prev.ordered === ordered) prev.items.push(inline);
      else blocks.push({ kind: 'list', ordered, items: [inline] });
    } else if (!line.trim()) {
      endPara();
    } else {
      para.push(line.trim());
    }
  }
  endPara();
  return blocks;
}
