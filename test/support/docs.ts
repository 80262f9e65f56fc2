import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reading the repository's Markdown the way a reader (or GitHub) does: the files, their fenced code
 * blocks, their prose without code, their headings' anchors. For the tests that keep the docs true
 * (links, examples, the recipes they show).
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Build output, dependencies and local data: not the repository's documents. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'dist', 'dist-bench', 'data', 'coverage', 'profiles']);

/** Every Markdown file of the repository, as paths relative to its root (`README.md`, `docs/api.md`, …). */
export function markdownFiles(dir = ROOT): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) out.push(...markdownFiles(join(dir, entry.name)));
    } else if (entry.name.endsWith('.md')) {
      out.push(relative(ROOT, join(dir, entry.name)));
    }
  }
  return out.sort();
}

export const readRepoFile = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

export interface CodeBlock {
  /** The info string after the opening fence (`sh`, `json`, …), possibly empty. */
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;

/** The fenced code blocks of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  let open: { fence: string; lang: string; line: number; body: string[] } | null = null;
  lines.forEach((line, i) => {
    const match = FENCE.exec(line);
    if (open) {
      if (match && match[1]!.startsWith(open.fence[0]!) && match[1]!.length >= open.fence.length && match[2] === '') {
        blocks.push({ lang: open.lang, text: open.body.join('\n'), line: open.line });
        open = null;
      } else {
        open.body.push(line);
      }
    } else if (match) {
      open = { fence: match[1]!, lang: match[2] ?? '', line: i + 1, body: [] };
    }
  });
  return blocks;
}

/** The lines of a Markdown text with those of fenced blocks (fences included) emptied. */
function outsideFences(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const match = FENCE.exec(line);
    if (fence) {
      if (match && match[1]!.startsWith(fence[0]!) && match[1]!.length >= fence.length && match[2] === '') fence = null;
      return '';
    }
    if (match) {
      fence = match[1]!;
      return '';
    }
    return line;
  });
}

/** The text outside fenced blocks and inline code spans (what can hold links), line breaks kept. */
export function prose(markdown: string): string {
  return outsideFences(markdown)
    .join('\n')
    .replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, `-`, `_` kept), spaces to `-`. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor the headings of a Markdown text define (repeated headings get `-1`, `-2`, …, as on GitHub). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of outsideFences(markdown)) {
    const match = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const base = slug(match[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/**
 * Runs docs/webhooks.md's `openssl req` command (the recipe's self-signed certificate for localhost)
 * with its folder replaced by `dir`, and returns the paths of the key and certificate it wrote.
 * Tests that need a receiver certificate use it, so the documented command is the one tried.
 */
export function recipeCertificate(dir: string): { keyFile: string; certFile: string } {
  const command = codeBlocks(readRepoFile('docs/webhooks.md'))
    .flatMap((b) => b.text.split('\n'))
    .find((line) => line.startsWith('openssl req '));
  if (!command) throw new Error('docs/webhooks.md has no `openssl req` command any more');
  const RECIPE_DIR = '/tmp/autosales-receiver';
  if (!command.includes(`${RECIPE_DIR}/key.pem`) || !command.includes(`${RECIPE_DIR}/cert.pem`)) {
    throw new Error(`the recipe's openssl command no longer writes ${RECIPE_DIR}/key.pem and cert.pem: ${command}`);
  }
  execFileSync('sh', ['-c', command.split(RECIPE_DIR).join(dir)], { stdio: 'pipe', timeout: 30_000 });
  return { keyFile: join(dir, 'key.pem'), certFile: join(dir, 'cert.pem') };
}
