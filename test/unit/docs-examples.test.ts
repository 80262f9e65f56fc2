import { describe, expect, it } from 'vitest';
import { isValidCnpj, isValidCpf, normalizeTaxId } from '../../src/domain/shared/tax-id.js';
import { codeBlocks, markdownFiles, readRepoFile } from '../support/docs.js';

/**
 * Issue 10, point 7: the README's SDK snippet and its curl walk-through created a client with the
 * same CPF, so whichever ran second failed with 422. CPF/CNPJ are unique per team, and every example
 * may run against the same (demo) team in any order: each number is valid and belongs to one example
 * only. An example is a fenced code block of any Markdown file with the API answers shown right after
 * it (`json` blocks holding an envelope: an answer creates nothing); identical blocks, such as the
 * SDK's quick start shown in its README, are one example. The data `autosales demo` creates and the
 * SDK's example scripts are examples too.
 */

const CPF = /\b\d{3}\.\d{3}\.\d{3}-\d{2}\b/g;
const CNPJ = /\b[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}\b/g;
/** `"cpf": "…"`, `cpf: '…'` (bare or punctuated, as an example may send either). */
const FIELD = /["']?\b(cpf|cnpj)["']?\s*:\s*["']([^"'\n]*)["']/g;

interface Found {
  kind: 'cpf' | 'cnpj';
  raw: string;
}

function taxIdsIn(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(CPF)) found.push({ kind: 'cpf', raw: m[0] });
  for (const m of text.matchAll(CNPJ)) found.push({ kind: 'cnpj', raw: m[0] });
  for (const m of text.matchAll(FIELD)) found.push({ kind: m[1]!.toLowerCase() as 'cpf' | 'cnpj', raw: m[2]! });
  return found;
}

const valid = (f: Found) => (f.kind === 'cpf' ? isValidCpf(f.raw) : isValidCnpj(f.raw));

interface Example {
  where: string;
  text: string;
}

function examples(): Example[] {
  const byText = new Map<string, Example>();
  for (const file of markdownFiles()) {
    let previous: Example | undefined;
    for (const block of codeBlocks(readRepoFile(file))) {
      const isAnswer = block.lang === 'json' && /^\s*\{\s*"success"/.test(block.text);
      if (isAnswer && previous) {
        previous.text += `\n${block.text}`;
        continue;
      }
      previous = byText.get(block.text.trim()) ?? { where: `${file}:${block.line}`, text: block.text };
      byText.set(block.text.trim(), previous);
    }
  }
  for (const file of ['src/cli/commands/demo.command.ts', 'packages/sdk/examples/quickstart.mjs']) {
    const text = readRepoFile(file);
    if (!byText.has(text.trim())) byText.set(text.trim(), { where: file, text });
  }
  return [...byText.values()];
}

describe('CPF and CNPJ in the documentation examples', () => {
  const all = examples();

  it('reads the examples (README, docs, SDK README, the demo data)', () => {
    const withIds = all.filter((e) => taxIdsIn(e.text).length > 0).map((e) => e.where.split(':')[0]);
    expect(new Set(withIds)).toEqual(new Set(['README.md', 'docs/api.md', 'src/cli/commands/demo.command.ts']));
  });

  it('every CPF and CNPJ is valid, unless its example is about the invalid-number error', () => {
    const problems: string[] = [];
    for (const example of all) {
      for (const id of taxIdsIn(example.text)) {
        if (valid(id)) continue;
        const shown = id.kind === 'cpf' ? 'CPF inválido' : 'CNPJ inválido';
        if (!example.text.includes(shown))
          problems.push(`${example.where}: ${id.kind} ${id.raw} has wrong check digits (and the example does not show "${shown}")`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('a valid number belongs to one example only, so the examples run in any order against one team', () => {
    const owner = new Map<string, string>();
    const problems: string[] = [];
    for (const example of all) {
      for (const id of new Set(
        taxIdsIn(example.text)
          .filter(valid)
          .map((f) => normalizeTaxId(f.raw)),
      )) {
        const first = owner.get(id);
        if (first && first !== example.where) problems.push(`${id} is in ${first} and in ${example.where}`);
        else owner.set(id, example.where);
      }
    }
    expect(problems).toEqual([]);
    expect(owner.size).toBeGreaterThanOrEqual(7);
  });

  it('the prose mentions only valid numbers (a reader copies those too)', () => {
    const problems: string[] = [];
    for (const file of markdownFiles()) {
      const text = readRepoFile(file);
      for (const id of taxIdsIn(text)) {
        if (valid(id)) continue;
        // Allowed only inside an example about the error (checked above).
        const inExample = codeBlocks(text).some((b) => b.text.includes(id.raw) && b.text.includes(id.kind === 'cpf' ? 'CPF inválido' : 'CNPJ inválido'));
        if (!inExample) problems.push(`${file}: ${id.raw}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
