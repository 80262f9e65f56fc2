import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/storage/db.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite:./data/autosales.db', './data/autosales.db'],
    ['sqlite:/var/lib/autosales/app.db', '/var/lib/autosales/app.db'],
    ['sqlite:relative.db', 'relative.db'],
    ['sqlite::memory:', ':memory:'],
  ])('%s is SQLite at %s', (url, path) => {
    expect(parseDatabaseUrl(url)).toEqual({ dialect: 'sqlite', path });
  });

  it.each(['postgres://postgres@127.0.0.1:5432/autosales_dev', 'postgresql://app:pw@db.internal/autosales?sslmode=require'])(
    '%s is PostgreSQL, passed on unchanged',
    (url) => {
      expect(parseDatabaseUrl(url)).toEqual({ dialect: 'postgres', url });
    },
  );

  it('sqlite: without a path is refused with an example', () => {
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/sqlite:\.\/data\/autosales\.db/);
  });

  it.each(['mysql://x', 'http://db', 'autosales.db', '', 'SQLITE:x.db', 'postgres:/x'])('%j is refused naming DATABASE_URL', (url) => {
    expect(() => parseDatabaseUrl(url)).toThrow(/DATABASE_URL/);
  });

  it('the error never repeats credentials from the URL', () => {
    let message = '';
    try {
      parseDatabaseUrl('mysql://root:s3cr3t-pw@db.internal/app');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).not.toContain('s3cr3t-pw');
    expect(message).not.toContain('root');
  });
});
