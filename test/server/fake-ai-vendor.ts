// A fake outside AI service, run as its own process by ai-vendor.test.ts: it listens on a free
// port (printed as "LISTENING <port>"), takes jobs at POST /job (checking the server's signature
// with the secret it was given), fetches every model link, and answers by the signed callback.
// Controlled over HTTP by the test: POST /control { secret, mode }, GET /jobs (what it got).
// mode: design (a design of one wire per prescribed upper wire, and its report), fail (a fail callback), refuse
// (503 to the job), silent (takes the job and never answers).
import http from 'node:http';
import type { AiVendorJob } from '../../common/ai-vendor.ts';
import { signedPost, verifyIncoming } from './ai-vendor-signer.ts';

type Mode = 'design' | 'fail' | 'refuse' | 'silent';
let secret = '';
let mode: Mode = 'design';
const jobs: { job: AiVendorJob; keyId: string; authorization: string | null; fetched: Record<string, number>; callback?: { status: number; body: unknown } }[] = [];

const read = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (text += c));
    req.on('end', () => resolve(text));
  });

async function answer(entry: (typeof jobs)[number]) {
  const { job } = entry;
  for (const [name, file] of Object.entries(job.files)) {
    const res = await fetch(file!.url);
    entry.fetched[name] = res.ok ? (await res.arrayBuffer()).byteLength : -res.status;
  }
  if (mode === 'silent') return;
  const url = mode === 'design' ? job.callback.replace('{type}', 'design').replace('{jawType}', 'upper') : job.callback.replace('{type}', 'fail').replace('{jawType}', 'both');
  const wires = (job.prescription.upper?.wires ?? []).map((w, i) => ({ id: `vendor-${i}`, type: w.type, jaw: 'upper', teeth: w.teeth, points: [], ai: { accepted: true } }));
  const report = wires.map((w) => ({ wireId: w.id, jaw: w.jaw, type: w.type, teeth: w.teeth, status: 'placed' }));
  const body = mode === 'design' ? { jobId: job.jobId, design: { schemaVersion: 1, wires, vendor: 'fake' }, report } : { jobId: job.jobId, reason: 'no teeth found on the upper model' };
  const res = await signedPost(url, entry.keyId, secret, JSON.stringify(body));
  entry.callback = { status: res.status, body: await res.json().catch(() => null) };
}

const server = http.createServer(async (req, res) => {
  const body = await read(req);
  const reply = (status: number, value: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  if (req.method === 'POST' && req.url === '/control') {
    ({ secret, mode } = JSON.parse(body) as { secret: string; mode: Mode });
    return reply(200, { ok: true });
  }
  if (req.method === 'GET' && req.url === '/jobs') return reply(200, jobs);
  if (req.method === 'POST' && req.url === '/job') {
    if (!(await verifyIncoming(secret, { method: 'POST', path: req.url, headers: req.headers, body }))) return reply(401, { error: 'bad signature' });
    if (mode === 'refuse') return reply(503, { error: 'the queue is full' });
    const entry = { job: JSON.parse(body) as AiVendorJob, keyId: String(req.headers['x-archwright-key']), authorization: req.headers.authorization ?? null, fetched: {} };
    jobs.push(entry);
    reply(202, { accepted: true });
    void answer(entry).catch((err) => console.error('fake vendor:', err));
    return;
  }
  reply(404, { error: 'not found' });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`LISTENING ${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
