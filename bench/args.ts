import { parseArgs } from 'node:util';

export interface BenchArgs {
  db: string;
  smoke: boolean;
  duration: number;
  warmup: number;
  connections: number;
  /** Deals (and clients) of the large team. */
  large: number;
  teams: number;
  /** Deals (and clients) of each other team. */
  others: number;
  scales: number[];
  seed: string;
  cpuProf: boolean;
  redis: string | null;
  out: string;
  keepDb: boolean;
  logLevel: string;
  latencySamples: number;
  seedOnly: boolean;
  /** Only the scenarios whose id matches (and the limiter/webhooks/scaling sections only if it matches those words). */
  only: RegExp | null;
  /** `--ai`: the win-probability bench only (bench/ai.ts), not the HTTP one. */
  ai: boolean;
  /** Deals of the generated history the quality run trains on and serves. */
  aiDeals: number;
  /** Closed deals of each training-time run. */
  aiSizes: number[];
}

export const USAGE = `npm run bench -- [options]

  --db <url>            sqlite (default: a temporary file) or postgres://user@host:5432/db
                        (the run works in a schema of its own, dropped at the end)
  --smoke               tiny data set, ~1 s per scenario (CI); targets are informational
  --duration <s>        seconds per measured scenario (default 10; smoke 0.8)
  --warmup <s>          unmeasured warm-up before each scenario (default 2; smoke 0.2)
  --connections <n>     concurrent connections of autocannon (default 10)
  --scale <list>        team sizes (deals and clients) for the list/search scaling runs
                        (default 10000,100000,1000000; smoke 100,200)
  --skip-1m             leave out scales of 1,000,000 and more
  --large <n>           deals and clients of the large team (default 100000; smoke 200)
  --teams <n>           number of teams (default 100; smoke 10)
  --others <n>          deals and clients of every other team (default 1000; smoke 20)
  --seed <text>         PRNG seed of the data set (default autosales-bench-1)
  --cpu-prof            restart the server per scenario under node --cpu-prof and summarise each profile
  --redis <url|off>     Redis for the limiter run (default redis://127.0.0.1:6379; when it does not
                        answer, a private redis-server is started if one is installed)
  --out <dir>           report directory (default bench/results)
  --log-level <level>   LOG_LEVEL of the server (default info, as in production)
  --keep-db             keep the database (SQLite file / PostgreSQL schema) after the run
  --seed-only           seed the main data set, print where it is and the large team's key, and stop
                        (implies --keep-db; for EXPLAIN experiments by hand)
  --only <regex>        run only the scenarios whose id matches (e.g. 'by-id|post-deal|panel'); the
                        limiter, scale-out (one then two server processes, limits in Redis), webhook
                        and scaling sections run only if the regex matches 'limiter', 'scale-out',
                        'webhooks' or 'scaling'. The ceilings are always measured. Same-run A/B, only
                        when the regex names them: 'auth-cache-off' (the by-id reads on a server with
                        AUTH_CACHE=off), 'log-warn' (the by-id reads with LOG_LEVEL=warn: no
                        access-log line), 'group-commit-off' (SQLite: the selected write scenarios
                        with SQLITE_GROUP_COMMIT=off).
  --ai                  only the win-probability bench (bench/ai.ts): model quality on a generated
                        history against the known truth and the phase baseline, the no-signal
                        fallback, and the training time per size; writes <db>-<date>-ai.md/.json
  --ai-deals <n>        deals of the quality run's generated history (default 20000)
  --ai-sizes <list>     closed deals of the training-time runs (default 1000,10000,100000)
`;

export function parseBenchArgs(argv: string[]): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'sqlite' },
      smoke: { type: 'boolean', default: false },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '10' },
      scale: { type: 'string' },
      'skip-1m': { type: 'boolean', default: false },
      large: { type: 'string' },
      teams: { type: 'string' },
      others: { type: 'string' },
      seed: { type: 'string', default: 'autosales-bench-1' },
      'cpu-prof': { type: 'boolean', default: false },
      redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
      out: { type: 'string', default: 'bench/results' },
      'keep-db': { type: 'boolean', default: false },
      'seed-only': { type: 'boolean', default: false },
      only: { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
      ai: { type: 'boolean', default: false },
      'ai-deals': { type: 'string' },
      'ai-sizes': { type: 'string', default: '1000,10000,100000' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const smoke = values.smoke;
  const num = (raw: string | undefined, fallback: number, name: string, min = 0) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number >= ${min} (got '${raw}')`);
    return n;
  };
  const large = num(values.large, smoke ? 200 : 100_000, 'large', 1);
  let scales = (values.scale ?? (smoke ? '100,200' : '10000,100000,1000000'))
    .split(',')
    .map((s) => Number(s.trim().replace(/_/g, '')))
    .filter((n) => Number.isInteger(n) && n > 0);
  if (values['skip-1m']) scales = scales.filter((s) => s < 1_000_000);
  scales = [...new Set([...scales])].sort((a, b) => a - b);
  return {
    db: values.db,
    smoke,
    duration: num(values.duration, smoke ? 0.8 : 10, 'duration', 0.2),
    warmup: num(values.warmup, smoke ? 0.2 : 2, 'warmup', 0),
    connections: Math.floor(num(values.connections, 10, 'connections', 1)),
    large,
    teams: Math.floor(num(values.teams, smoke ? 10 : 100, 'teams', 2)),
    others: Math.floor(num(values.others, smoke ? 20 : 1000, 'others', 1)),
    scales,
    seed: values.seed,
    cpuProf: values['cpu-prof'],
    redis: values.redis === 'off' ? null : values.redis,
    out: values.out,
    keepDb: values['keep-db'] || values['seed-only'],
    seedOnly: values['seed-only'],
    only: values.only ? new RegExp(values.only) : null,
    logLevel: values['log-level'],
    latencySamples: smoke ? 6 : 100,
    ai: values.ai,
    aiDeals: Math.floor(num(values['ai-deals'], 20_000, 'ai-deals', 100)),
    aiSizes: values['ai-sizes']
      .split(',')
      .map((s) => Number(s.trim().replace(/_/g, '')))
      .filter((n) => Number.isInteger(n) && n >= 40),
  };
}
