import { describe, expect, it } from 'vitest';
import type { BenchArgs } from '../../bench/args.js';
import type { LoadResult } from '../../bench/load.js';
import { computeTargets, type RunReport, type ScenarioResult } from '../../bench/report.js';

/**
 * Issue 15's targets as the bench report judges them: the default list against a static server
 * answering the same page, by id of deals, clients and vehicles against the ceiling, plate search under
 * 10 ms, and the panel's board routes at the list target.
 */

const load = (rps: number, p99 = 5): LoadResult => ({
  requests: rps * 10,
  noneCompleted: false,
  durationS: 10,
  rps,
  p50: p99 / 2,
  p90: p99,
  p99,
  max: p99,
  mean: p99 / 2,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  statusCodes: { 200: rps * 10 },
  connections: 10,
});

const result = (id: string, group: ScenarioResult['group'], l: LoadResult, title = id): ScenarioResult => ({ id, title, group, teamSize: 100_000, load: l });

function report(dialect: 'sqlite' | 'postgres', results: ScenarioResult[]): RunReport {
  return {
    args: { large: 100_000, scales: [100_000] } as BenchArgs,
    dialect,
    dbVersion: 'x',
    startedAt: '2026-11-24T00:00:00.000Z',
    finishedAt: '2026-11-24T00:10:00.000Z',
    machine: { cpus: 2, model: 'x', node: 'v20', memGb: 24, loadStart: [0, 0, 0], loadEnd: [0, 0, 0], kernel: 'x' },
    git: 'x',
    seeding: [],
    maintenance: [],
    ceiling: [load(20_000), load(10_000)],
    listCeiling: [load(4_000), load(4_000)],
    results,
    servers: [],
    problems: [],
    notes: [],
  };
}

const verdict = (r: RunReport, target: string) => computeTargets(r).find((t) => t.target === target)?.met;

describe('bench targets (issue 15)', () => {
  it('judges the default list against the list-page ceiling, not the single-deal one', () => {
    const r = report('sqlite', [result('list-default', 'list', load(1_000))]);
    expect(verdict(r, 'GET /deals (default list) vs the same page served static')).toBe(true);
    r.results = [result('list-default', 'list', load(999))];
    expect(verdict(r, 'GET /deals (default list) vs the same page served static')).toBe(false);
  });

  it('by id of deals, clients and vehicles: 0.5x the ceiling on SQLite, 0.25x on PostgreSQL', () => {
    const ids = ['deal-by-id', 'client-by-id', 'vehicle-by-id'].map((id) => result(id, 'read', load(4_000)));
    const sqlite = computeTargets(report('sqlite', ids)).filter((t) => t.target.endsWith('vs ceiling'));
    expect(sqlite.map((t) => [t.target, t.met])).toEqual([
      ['GET /deals/:id vs ceiling', false],
      ['GET /clients/:id vs ceiling', false],
      ['GET /vehicles/:id vs ceiling', false],
    ]);
    expect(computeTargets(report('postgres', ids)).filter((t) => t.target.endsWith('vs ceiling') && t.met)).toHaveLength(3);
  });

  it('plate search must answer under 10 ms at p99, like the CPF search', () => {
    const r = report('sqlite', [result('vehicle-search-plate', 'search', load(500, 12))]);
    expect(computeTargets(r).find((t) => t.target.startsWith('Plate search'))).toMatchObject({ threshold: '< 10 ms', met: false });
  });

  it("the panel's board routes are held to the list target (p99 < 25 ms)", () => {
    const r = report('postgres', [
      result('panel-deals-board', 'panel', load(300, 30), 'Panel: GET /panel/api/deals/board'),
      result('panel-dashboard', 'panel', load(300, 20), 'Panel: GET /panel/api/dashboard'),
    ]);
    expect(verdict(r, 'Panel: GET /panel/api/deals/board p99')).toBe(false);
    expect(verdict(r, 'Panel: GET /panel/api/dashboard p99')).toBe(true);
  });
});
