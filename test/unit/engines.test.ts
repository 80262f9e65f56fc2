import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/** Our floor: every installed package must declare support for it (package.json "engines"). */
const FLOOR = '20.19.0';

describe('dependencies support Node >= 20.19', () => {
  it('every package in the lockfile accepts Node 20.19', () => {
    const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([path, pkg]) => path && !Array.isArray(pkg.engines) && pkg.engines?.node && !semver.satisfies(FLOOR, pkg.engines.node))
      .map(([path, pkg]) => `${path} (${(pkg.engines as { node: string }).node})`);
    expect(refusing).toEqual([]);
  });
});
