import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, anchors, markdownFiles, prose, readRepoFile, slug } from '../support/docs.js';

/**
 * Issue 10, point 7: the README's links to `../shared/…` were dead in a clone. The repository stands
 * alone: no Markdown file may point outside it, and every relative link (and `#anchor`) must land.
 */

const files = markdownFiles();

/** `[text](target)`, `[text](target "title")`, `![alt](target)`, `<a href="target">` and `[label]: target` in prose. */
function linksOf(markdown: string): Array<{ target: string; line: number }> {
  const text = prose(markdown);
  const found: Array<{ target: string; index: number }> = [];
  for (const m of text.matchAll(/!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: m[1]!, index: m.index });
  for (const m of text.matchAll(/<a\s[^>]*href="([^"]+)"/g)) found.push({ target: m[1]!, index: m.index });
  for (const m of text.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) found.push({ target: m[1]!, index: m.index });
  return found.map(({ target, index }) => ({ target, line: text.slice(0, index).split('\n').length }));
}

const EXTERNAL = /^(https?:|mailto:)/i;

describe('Markdown links', () => {
  it('finds the documents (README, docs/, the SDK, the benchmark)', () => {
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'docs/api.md', 'docs/webhooks.md', 'docs/interpretation.md', 'packages/sdk/README.md', 'bench/README.md']),
    );
  });

  it.each(files)('%s points at nothing outside the repository (no ../shared, no shared spec or decisions file)', (file) => {
    const text = readRepoFile(file);
    for (const banned of ['../shared', 'shared/spec', 'DECISIONS.md', 'api-v1.md']) {
      const line = text.split('\n').findIndex((l) => l.includes(banned));
      expect(line, `${file}:${line + 1} mentions ${banned}`).toBe(-1);
    }
  });

  it.each(files)('%s: every relative link names an existing file, and every #anchor an existing heading', (file) => {
    const problems: string[] = [];
    for (const { target, line } of linksOf(readRepoFile(file))) {
      if (EXTERNAL.test(target)) continue;
      const where = `${file}:${line} → ${target}`;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) {
        problems.push(`${where}: only relative links or http(s)/mailto URLs work in a clone and on GitHub`);
        continue;
      }
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (resolved.startsWith('..') || relative(ROOT, join(ROOT, resolved)).startsWith('..')) {
        problems.push(`${where}: leaves the repository`);
        continue;
      }
      if (!existsSync(join(ROOT, resolved))) {
        problems.push(`${where}: ${resolved} does not exist`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && statSync(join(ROOT, resolved)).isFile()) {
        if (!anchors(readRepoFile(resolved)).has(anchor)) problems.push(`${where}: no heading #${anchor} in ${resolved}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the link checker itself', () => {
  it('reads links outside code only, and makes GitHub anchors', () => {
    const md = [
      '# Lists: paging, sorting, filters, search',
      '## `GET /deals`',
      '## Operations: request ids, logs, metrics, shutdown',
      '## Lists: paging, sorting, filters, search',
      'See [the API](docs/api.md#errors) and ![x](img.png "t") and <a href="a.md">a</a>.',
      '`[not a link](nowhere.md)`',
      '```md',
      '[not a link either](nowhere.md)',
      '```',
      '[ref]: ../x.md',
    ].join('\n');
    expect(linksOf(md).map((l) => l.target)).toEqual(['docs/api.md#errors', 'img.png', 'a.md', '../x.md']);
    expect([...anchors(md)]).toEqual([
      'lists-paging-sorting-filters-search',
      'get-deals',
      'operations-request-ids-logs-metrics-shutdown',
      'lists-paging-sorting-filters-search-1',
    ]);
    expect(slug('PUT /deals/:id')).toBe('put-dealsid');
    expect(slug('Receiver example (Fastify)')).toBe('receiver-example-fastify');
    expect(slug('Versioning and compatibility')).toBe('versioning-and-compatibility');
  });
});
