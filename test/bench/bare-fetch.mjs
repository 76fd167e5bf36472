// The floor for the runner's start-up (test/bench/cli-startup.ts): a Node process that only
// POSTs one request to ANTHROPIC_BASE_URL and exits. Extra arguments are ignored.
const res = await fetch(`${process.env.ANTHROPIC_BASE_URL}/v1/messages`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_API_KEY ?? '', 'anthropic-version': '2023-06-01' },
  body: JSON.stringify({ model: 'bench', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
});
await res.text();
