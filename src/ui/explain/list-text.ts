/** Names as inline code for an explanation: `a`, `b` — or `none`. */
export const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `\`${x}\``).join(', ') : 'none');
