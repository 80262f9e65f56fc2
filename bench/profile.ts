// Summary of a V8 .cpuprofile (written by `node --cpu-prof`): self time per function and per package.
// Also runnable alone: node dist-bench/bench/profile.js <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Time not idle. */
  busyMs: number;
  functions: Array<{ name: string; where: string; selfMs: number; pct: number }>;
  packages: Array<{ name: string; selfMs: number; pct: number }>;
  /** Inclusive time (self + callees) of each autosales function on the stack: where the service's own code spends. */
  inclusive: Array<{ name: string; where: string; ms: number; pct: number }>;
}

function packageOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program: native, incl. SQLite/pg/libuv work)';
    return `native: ${functionName || '(anonymous)'}`;
  }
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + 14).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const dist = url.indexOf('/dist/');
  if (dist !== -1)
    return `autosales: ${url
      .slice(dist + 6)
      .split('/')
      .slice(0, 2)
      .join('/')}`;
  return url;
}

export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const fn = new Map<string, { name: string; where: string; us: number }>();
  const pkg = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    total += us;
    if (functionName === '(idle)') idle += us;
    const where = url ? `${url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const entry = fn.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 };
    entry.us += us;
    fn.set(key, entry);
    const p = packageOf(url, functionName);
    pkg.set(p, (pkg.get(p) ?? 0) + us);
  }
  // Inclusive time of the service's own functions (dist/…): each sample counted once per function on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, { name: string; where: string; us: number }>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const { functionName, url, lineNumber } = byId.get(cur)!.callFrame;
      const dist = url.indexOf('/dist/');
      if (dist === -1 || url.includes('/node_modules/')) continue;
      const where = `${url.slice(dist + 1)}:${lineNumber + 1}`;
      const key = `${functionName}@${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = inclusive.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 };
      entry.us += us;
      inclusive.set(key, entry);
    }
  }
  const busy = total - idle;
  const pct = (us: number) => (busy > 0 ? (100 * us) / busy : 0);
  return {
    file,
    totalMs: total / 1000,
    busyMs: busy / 1000,
    functions: [...fn.values()]
      .filter((f) => f.name !== '(idle)')
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, selfMs: f.us / 1000, pct: pct(f.us) })),
    inclusive: [...inclusive.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, ms: f.us / 1000, pct: pct(f.us) })),
    packages: [...pkg.entries()]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([name, us]) => ({ name, selfMs: us / 1000, pct: pct(us) })),
  };
}

export function formatProfile(summary: ProfileSummary, topFunctions = 12): string[] {
  const lines = [
    `CPU profile ${summary.file}: ${summary.busyMs.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms`,
    '',
    '| Self time by package | ms | % of busy |',
    '|---|---:|---:|',
  ];
  for (const p of summary.packages) lines.push(`| ${p.name} | ${p.selfMs.toFixed(0)} | ${p.pct.toFixed(1)} |`);
  lines.push('', '| Hottest functions (self) | where | ms | % |', '|---|---|---:|---:|');
  for (const f of summary.functions.slice(0, topFunctions)) lines.push(`| ${f.name} | ${f.where} | ${f.selfMs.toFixed(0)} | ${f.pct.toFixed(1)} |`);
  lines.push('', '| autosales functions, inclusive (self + callees) | where | ms | % of busy |', '|---|---|---:|---:|');
  for (const f of summary.inclusive.slice(0, topFunctions)) lines.push(`| ${f.name} | ${f.where} | ${f.ms.toFixed(0)} | ${f.pct.toFixed(1)} |`);
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node dist-bench/bench/profile.js <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  process.stdout.write(`${formatProfile(summarizeProfile(file, Number(top ?? 25)), Number(top ?? 25)).join('\n')}\n`);
}
