import { pino, type Logger } from 'pino';
import { createLogger } from '../../src/process/logger.js';

/** A pino logger configured as the server's (same redaction), writing JSON lines into memory. */
export interface CapturedLogs {
  logger: Logger;
  /** Every line as written (the raw text is what a leak check must read). */
  raw: string[];
  lines(): Array<Record<string, any>>;
  text(): string;
}

export function captureLogs(level: pino.LevelWithSilent = 'info'): CapturedLogs {
  const raw: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void raw.push(line) });
  return {
    logger,
    raw,
    lines: () => raw.flatMap((l) => l.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Record<string, any>),
    text: () => raw.join(''),
  };
}

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
export function parseProm(text: string): PromSample[] {
  const out: PromSample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample with this name and (at least) these labels; undefined when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = parseProm(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
