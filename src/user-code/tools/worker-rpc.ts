/**
 * The worker's side of the file proxy, as source text shared by both runners: `__callFiles(op,
 * args)` posts a request and resolves with the matching `fs-reply`. `post` and the reply hook are
 * bound by each runner's worker script (`parentPort` in Node, `self` in the browser).
 */
export const WORKER_RPC = `
const __pending = new Map();
let __seq = 0;
const __callFiles = (op, args) => new Promise((resolve, reject) => {
  const id = ++__seq;
  __pending.set(id, { resolve, reject });
  __post({ t: 'fs', id, op, args });
});
const __onReply = (m) => {
  if (!m || m.t !== 'fs-reply') return;
  const p = __pending.get(m.id);
  if (!p) return;
  __pending.delete(m.id);
  if (m.ok) p.resolve(m.value); else p.reject(new Error(m.error));
};
`;
