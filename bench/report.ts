// The Markdown report (bench/results/<db>-<date>.md) and the MET / MISSED targets of issue 6.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { BenchArgs } from './args.js';
import type { StatementReport } from './explain.js';
import type { LoadResult } from './load.js';
import { formatProfile, type ProfileSummary } from './profile.js';
import type { Group } from './scenarios.js';

export interface ScenarioResult {
  id: string;
  title: string;
  group: Group;
  teamSize: number;
  load?: LoadResult;
  single?: LoadResult;
  /** Server CPU time during the measured run / wall time (100% = one core). */
  serverCpuPct?: number;
  load1?: number;
  note?: string;
  deliveries?: { count: number; perSecond: number; backlog: number; concurrency: string };
  latency?: { samples: number; missing: number; p50: number; p90: number; p99: number; max: number; pollMs: string };
  statements?: StatementReport[];
  profile?: ProfileSummary;
  /** Too slow for the common settings: measured with one connection (a lower bound for the others). */
  oneConnection?: boolean;
}

export interface SeedingRow {
  label: string;
  teams: number;
  clients: number;
  deals: number;
  ms: number;
}

export interface TargetCheck {
  target: string;
  figure: string;
  threshold: string;
  met: boolean | null;
}

export interface RunReport {
  args: BenchArgs;
  dialect: 'sqlite' | 'postgres';
  dbVersion: string;
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; model: string; node: string; memGb: number; loadStart: number[]; loadEnd: number[]; kernel: string };
  git: string;
  seeding: SeedingRow[];
  maintenance: Array<{ label: string; ms: number }>;
  ceiling: LoadResult[];
  /** The bare server answering the default list's first page as static JSON (absent in reports before issue 15). */
  listCeiling?: LoadResult[];
  results: ScenarioResult[];
  servers: Array<{ name: string; rssMb: number | null }>;
  problems: string[];
  notes: string[];
}

const meanRps = (runs: LoadResult[] | undefined) => (runs?.length ? runs.reduce((s, c) => s + c.rps, 0) / runs.length : NaN);
export const ceilingRps = (r: RunReport) => meanRps(r.ceiling);
export const listCeilingRps = (r: RunReport) => meanRps(r.listCeiling);

const f0 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(0));
const f1 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(2) : n.toFixed(1));
const int = (n: number) => n.toLocaleString('en-US');
/** Requests per second: one decimal below 10. */
const rps = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(1) : n.toFixed(0));

export function computeTargets(r: RunReport): TargetCheck[] {
  const out: TargetCheck[] = [];
  const sqlite = r.dialect === 'sqlite';
  const find = (id: string, size?: number) => r.results.find((x) => x.id === id && (size === undefined || x.teamSize === size));
  const ceiling = ceilingRps(r);
  for (const [id, label] of [
    ['deal-by-id', 'GET /deals/:id'],
    ['client-by-id', 'GET /clients/:id'],
    ['vehicle-by-id', 'GET /vehicles/:id'],
  ] as const) {
    const res = find(id);
    if (!res?.load) continue;
    const ratio = res.load.rps / ceiling;
    out.push({
      target: `${label} vs ceiling`,
      figure: `${ratio.toFixed(2)}x (${f0(res.load.rps)} / ${f0(ceiling)} req/s)`,
      threshold: `>= ${sqlite ? 0.5 : 0.25}x`,
      met: ratio >= (sqlite ? 0.5 : 0.25),
    });
  }
  const list = find('list-default', r.args.large);
  const listCeiling = listCeilingRps(r);
  if (list?.load && !Number.isNaN(listCeiling)) {
    const ratio = list.load.rps / listCeiling;
    out.push({
      target: 'GET /deals (default list) vs the same page served static',
      figure: `${ratio.toFixed(2)}x (${f0(list.load.rps)} / ${f0(listCeiling)} req/s)`,
      threshold: '>= 0.25x',
      met: ratio >= 0.25,
    });
  }
  // Vehicles (issue 11): the deal targets, at the large team's vehicle count.
  for (const [id, label, ms] of [
    ['vehicle-list-default', 'Vehicle list p99', 25],
    ['vehicle-list-price', 'Price-filtered vehicle list p99', 25],
    ['vehicle-search-plate', 'Plate search p99', 10],
  ] as const) {
    const res = find(id);
    if (!res?.load) continue;
    out.push({
      target: `${label} @ ${int(res.teamSize)} vehicles`,
      figure: `${res.load.noneCompleted ? '> ' : ''}${f1(res.load.p99)} ms${res.oneConnection ? ' (1 connection)' : ''}`,
      threshold: `< ${ms} ms`,
      met: !res.load.noneCompleted && res.load.p99 < ms,
    });
  }
  const latencyTargets: Array<[string, string, number]> = [
    ['list-default', 'List p99', 25],
    ['list-filtered', 'Filtered list p99', 25],
    ['search-title', 'Title search p99', 50],
    ['search-name', 'Name search p99', 50],
    ['search-cpf', 'CPF search p99', 10],
  ];
  const sizes: Array<[number, number]> = [[r.args.large, 1]];
  for (const s of r.args.scales) if (s >= 1_000_000 && s !== r.args.large) sizes.push([s, 3]);
  for (const [size, factor] of sizes) {
    for (const [id, label, ms] of latencyTargets) {
      const res = find(id, size);
      if (!res?.load) continue;
      const limit = ms * factor;
      out.push({
        target: `${label} @ ${int(size)} deals`,
        figure: `${res.load.noneCompleted ? '> ' : ''}${f1(res.load.p99)} ms${res.oneConnection ? ' (1 connection)' : ''}`,
        threshold: `< ${limit} ms`,
        met: !res.load.noneCompleted && res.load.p99 < limit,
      });
    }
  }
  // The panel's JSON routes behind the boards: the API's list target.
  for (const x of r.results.filter((y) => y.group === 'panel' && y.load)) {
    out.push({
      target: `${x.title} p99`,
      figure: `${x.load!.noneCompleted ? '> ' : ''}${f1(x.load!.p99)} ms`,
      threshold: '< 25 ms',
      met: !x.load!.noneCompleted && x.load!.p99 < 25,
    });
  }
  const post = find('post-deal');
  const postMin = sqlite ? 3000 : 1500;
  if (post?.load)
    out.push({ target: 'POST /deals with a webhook', figure: `${f0(post.load.rps)} req/s`, threshold: `>= ${postMin} req/s`, met: post.load.rps >= postMin });
  const deliveries = find('webhook-throughput');
  if (deliveries?.deliveries)
    out.push({
      target: 'Webhook deliveries',
      figure: `${f0(deliveries.deliveries.perSecond)} /s`,
      threshold: '>= 500 /s',
      met: deliveries.deliveries.perSecond >= 500,
    });
  const latency = find('webhook-latency');
  if (latency?.latency)
    out.push({
      target: 'Commit-to-receipt p50 (idle queue, default WEBHOOK_POLL_MS)',
      figure: `${f1(latency.latency.p50)} ms`,
      threshold: '< 100 ms',
      met: latency.latency.samples > 0 && latency.latency.p50 < 100,
    });
  const rss = r.servers.map((s) => s.rssMb ?? 0);
  if (rss.length) {
    const max = Math.max(...rss);
    out.push({ target: 'Server RSS after the run (max over server processes)', figure: `${f0(max)} MB`, threshold: '< 300 MB', met: max < 300 });
  }
  return out;
}

function resultRow(r: RunReport, x: ScenarioResult): string {
  const ceiling = ceilingRps(r);
  if (x.deliveries) {
    return `| ${x.title} | ${int(x.teamSize)} | ${f0(x.deliveries.perSecond)} deliveries/s | – | – | – | ${(x.deliveries.perSecond / ceiling).toFixed(3)} | ${x.serverCpuPct === undefined ? '–' : `${f0(x.serverCpuPct)}%`} | – | ${x.load1?.toFixed(1) ?? '–'} | ${x.deliveries.count} delivered (backlog ${x.deliveries.backlog}), ${x.deliveries.concurrency} |`;
  }
  if (x.latency) {
    const l = x.latency;
    return `| ${x.title} | ${int(x.teamSize)} | – | ${f1(l.p50)} | ${f1(l.p99)} | ${f1(l.max)} | – | – | ${l.missing ? `${l.missing} missing` : '0'} | ${x.load1?.toFixed(1) ?? '–'} | ${l.samples} sequential POSTs, ${l.pollMs}; p90 ${f1(l.p90)} ms |`;
  }
  const l = x.load!;
  const bad = l.non2xx + l.errors;
  const gt = l.noneCompleted ? '> ' : '';
  const single =
    x.single && x.single !== x.load && !x.oneConnection ? `@1 conn: ${rps(x.single.rps)} req/s, p50 ${f1(x.single.p50)} / p99 ${f1(x.single.p99)} ms` : '';
  const notes = [single, x.note ?? ''].filter(Boolean).join('; ');
  return `| ${x.title} | ${int(x.teamSize)} | ${rps(l.rps)} | ${gt}${f1(l.p50)} | ${gt}${f1(l.p99)} | ${gt}${f1(l.max)} | ${(l.rps / ceiling).toFixed(2)} | ${x.serverCpuPct === undefined ? '–' : `${f0(x.serverCpuPct)}%`} | ${
    bad
      ? `${bad} (${Object.entries(l.statusCodes)
          .map(([c, n]) => `${c}: ${n}`)
          .join(', ')}${l.timeouts ? `, ${l.timeouts} timeouts` : ''})`
      : '0'
  } | ${x.load1?.toFixed(1) ?? '–'} | ${notes} |`;
}

export function renderReport(r: RunReport, targets: TargetCheck[]): string {
  const a = r.args;
  const lines: string[] = [];
  const ceiling = ceilingRps(r);
  lines.push(`# autosales benchmark — ${r.dialect}${a.smoke ? ' (smoke)' : ''} — ${r.startedAt.slice(0, 10)}`, '');
  lines.push(`- Machine: ${r.machine.cpus} CPUs (${r.machine.model}), ${r.machine.memGb.toFixed(0)} GB RAM, ${r.machine.kernel}; Node ${r.machine.node}`);
  lines.push(
    `- Load average (1/5/15 min): ${r.machine.loadStart.map((n) => n.toFixed(2)).join(' / ')} at the start, ${r.machine.loadEnd.map((n) => n.toFixed(2)).join(' / ')} at the end — the machine is shared, so compare ratios to the ceiling rather than raw figures`,
  );
  lines.push(`- Database: ${r.dialect} ${r.dbVersion}; code: ${r.git}`);
  lines.push(
    `- Load: autocannon 8 in the runner process, ${a.connections} connections, pipelining 1, ${a.duration} s measured after ${a.warmup} s of warm-up per scenario; server: \`node bin/autosales.js serve\` child process, LOG_LEVEL=${a.logLevel}, NODE_ENV=production, RATE_LIMITS=off unless stated`,
  );
  lines.push(
    `- Data set (seed \`${a.seed}\`): ${a.teams} teams (Autoshopping plan); the large team has ${int(a.large)} deals and ${int(a.large)} clients, the others ${int(a.others)} each; scaling teams: ${
      a.scales
        .filter((s) => s !== a.large)
        .map(int)
        .join(', ') || 'none'
    }`,
  );
  lines.push(`- Run: ${r.startedAt} → ${r.finishedAt}`, '');

  lines.push('## Targets', '', '| Target | Measured | Threshold | Result |', '|---|---|---|---|');
  for (const t of targets)
    lines.push(
      `| ${t.target} | ${t.figure} | ${t.threshold} | ${t.met === null ? 'n/a' : t.met ? 'MET' : '**MISSED**'}${a.smoke ? ' (informational: smoke)' : ''} |`,
    );
  lines.push('');

  lines.push('## Scenarios', '');
  lines.push(
    `Ceiling (bare Fastify, one static deal JSON, no database): ${r.ceiling.map((c) => `${f0(c.rps)} req/s (p50 ${f1(c.p50)} / p99 ${f1(c.p99)} / max ${f1(c.max)} ms)`).join(' at the start, ')}${r.ceiling.length > 1 ? ' at the end' : ''}; ratios use the mean, ${f0(ceiling)} req/s.`,
    '',
  );
  const listCeiling = listCeilingRps(r);
  if (!Number.isNaN(listCeiling))
    lines.push(
      `List-page ceiling (the same server answering the default list's first page as static JSON): ${r.listCeiling!.map((c) => `${f0(c.rps)} req/s (p50 ${f1(c.p50)} / p99 ${f1(c.p99)} ms)`).join(' at the start, ')}${r.listCeiling!.length > 1 ? ' at the end' : ''}; mean ${f0(listCeiling)} req/s.`,
      '',
    );

  const out1 = r.results.find((x) => x.id === 'scale-out-1')?.load;
  const out2 = r.results.find((x) => x.id === 'scale-out-2')?.load;
  if (out1 && out2)
    lines.push(
      `Scaling out: ${f0(out1.rps)} req/s on one server process, ${f0(out2.rps)} on two (${(out2.rps / out1.rps).toFixed(2)}×), same database, plan limits shared in Redis, the same ${r.args.connections} connections; the two processes, the database and the load generator share the machine's ${r.machine.cpus} CPUs.`,
      '',
    );

  lines.push(
    '| Scenario | Team deals | req/s | p50 ms | p99 ms | max ms | × ceiling | server CPU | non-2xx / errors | load1 | notes |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const x of r.results) lines.push(resultRow(r, x));
  lines.push('');

  const scaling = ['list-default', 'list-filtered', 'list-page-2000', 'search-title', 'search-cpf', 'search-name'];
  const sizes = [...new Set(r.results.filter((x) => scaling.includes(x.id)).map((x) => x.teamSize))].sort((p, q) => p - q);
  if (sizes.length > 1) {
    lines.push(
      '## Scaling (p99 ms under load; p50 ms with one connection in brackets)',
      '',
      `| Scenario | ${sizes.map(int).join(' | ')} |`,
      `|---|${sizes.map(() => '---:').join('|')}|`,
    );
    for (const id of scaling) {
      const cells = sizes.map((s) => {
        const x = r.results.find((y) => y.id === id && y.teamSize === s);
        if (!x?.load) return '–';
        if (x.oneConnection) return `${f1(x.load.p99)}¹ (${f1(x.load.p50)})`;
        return `${x.load.noneCompleted ? '> ' : ''}${f1(x.load.p99)}${x.single ? ` (${x.single.noneCompleted ? '> ' : ''}${f1(x.single.p50)})` : ''}`;
      });
      const title = r.results.find((y) => y.id === id)?.title ?? id;
      lines.push(`| ${title} | ${cells.join(' | ')} |`);
    }
    if (r.results.some((x) => x.oneConnection))
      lines.push('', '¹ one request alone took more than 1.5 s: measured with one connection only (a lower bound for the common setting).');
    lines.push('');
  }

  lines.push('## Seeding', '', '| Part | Teams | Clients | Deals | Time s | rows/s |', '|---|---:|---:|---:|---:|---:|');
  for (const s of r.seeding)
    lines.push(
      `| ${s.label} | ${s.teams} | ${int(s.clients)} | ${int(s.deals)} | ${(s.ms / 1000).toFixed(1)} | ${f0(((s.clients + s.deals) * 1000) / s.ms)} |`,
    );
  for (const m of r.maintenance) lines.push(`| ${m.label} | | | | ${(m.ms / 1000).toFixed(1)} | |`);
  lines.push('');

  lines.push('## Server processes (RSS just before SIGTERM)', '', '| Server | RSS MB |', '|---|---:|');
  for (const s of r.servers) lines.push(`| ${s.name} | ${f0(s.rssMb ?? NaN)} |`);
  lines.push('');

  const withStatements = r.results.filter((x) => x.statements?.length);
  if (withStatements.length) {
    lines.push('## Where the time goes in list and search (each statement the service runs, timed alone on an idle server: median of up to 7 runs)', '');
    lines.push('| Scenario | Team deals | Statement | median ms | plan |', '|---|---:|---|---:|---|');
    for (const x of withStatements) {
      for (const s of x.statements!) {
        const kind = /count\(\*\)/i.test(s.sql) ? 'count' : 'page';
        const plan = s.plan
          .map((p) => p.trim())
          .filter((p) => !/^(Planning|Execution) Time|^Buffers|^Planning:/.test(p))
          .slice(0, 4)
          .join(' ⟶ ')
          .replace(/\|/g, '\\|');
        lines.push(`| ${x.title} | ${int(x.teamSize)} | ${kind} | ${f1(s.medianMs)} | ${plan} |`);
      }
    }
    lines.push('', '<details><summary>Full SQL and plans</summary>', '');
    for (const x of withStatements) {
      lines.push(`### ${x.title} @ ${int(x.teamSize)} deals`, '');
      for (const s of x.statements!) {
        lines.push(
          '```sql',
          s.sql,
          `-- parameters: ${JSON.stringify(s.parameters)}`,
          `-- median ${s.medianMs.toFixed(2)} ms`,
          ...s.plan.map((p) => `-- ${p}`),
          '```',
          '',
        );
      }
    }
    lines.push('</details>', '');
  }

  const profiled = r.results.filter((x) => x.profile);
  if (profiled.length) {
    lines.push('## CPU profiles of the server (--cpu-prof)', '');
    for (const x of profiled) lines.push(`### ${x.title} @ ${int(x.teamSize)}`, '', ...formatProfile(x.profile!, 10), '');
  }

  if (r.notes.length) lines.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  if (r.problems.length) lines.push('## Problems (the harness treats these as failures)', '', ...r.problems.map((p) => `- ${p}`), '');
  return lines.join('\n');
}

/** Re-renders a report from its JSON: node dist-bench/bench/report.js bench/results/<db>-<date>.json */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file?.endsWith('.json')) {
    process.stderr.write('usage: node dist-bench/bench/report.js <report.json>\n');
    process.exit(2);
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as RunReport;
  // Older JSON files mark one-connection runs only by sharing the object: detect them by their note.
  for (const x of report.results) if (x.note?.includes('measured with 1 connection only')) x.oneConnection = true;
  const targets = computeTargets(report);
  writeFileSync(file.replace(/\.json$/, '.md'), renderReport(report, targets));
  writeFileSync(file, JSON.stringify({ ...report, targets }, null, 1));
  process.stdout.write(`${file.replace(/\.json$/, '.md')} written\n`);
}
