import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the listener received it, with the parts tests care about decoded. */
export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** The message exactly as transmitted (after SMTP dot-unstuffing). */
  raw: string;
  /** Subject header, unfolded and decoded from RFC 2047 encoded words. */
  subject: string;
  /** The text/plain body, decoded from quoted-printable or base64. */
  text: string;
}

export interface SmtpListener {
  /** `smtp://user:pass@127.0.0.1:PORT`; any credentials are accepted. */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves once at least `count` messages have arrived (rejects after `timeoutMs`, default 5000). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on an ephemeral 127.0.0.1 port: no TLS, optional auth, any credentials. */
export async function startSmtpListener(): Promise<SmtpListener> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelopeFrom = session.envelope.mailFrom;
        messages.push({
          from: envelopeFrom ? envelopeFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          ...parseMessage(raw),
        });
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Keep a late socket error from crashing the test process.
  server.on('error', () => undefined);
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    port,
    messages,
    waitFor(count, timeoutMs = 5000) {
      if (messages.length >= count) return Promise.resolve(messages.slice());
      return new Promise((resolve, reject) => {
        const wake = (): void => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(messages.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`expected ${count} e-mail(s) within ${timeoutMs} ms, received ${messages.length}`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------------------------------
// Minimal MIME decoding, enough for what nodemailer produces (mailparser is unavailable).

interface Part {
  headers: Map<string, string>;
  body: string;
}

function parseMessage(raw: string): { subject: string; text: string } {
  const message = splitPart(raw);
  return {
    subject: decodeEncodedWords(message.headers.get('subject') ?? ''),
    text: findText(message) ?? '',
  };
}

/** Headers (unfolded, names lower-cased; the first occurrence wins) and the body. */
function splitPart(raw: string): Part {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The first text/plain part, decoded; multipart bodies are searched depth-first. */
function findText(part: Part): string | null {
  const contentType = part.headers.get('content-type') ?? 'text/plain';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? 'text/plain';
  if (mediaType.startsWith('multipart/')) {
    const boundary = parameter(contentType, 'boundary');
    if (!boundary) return null;
    const delimiter = `--${boundary}`;
    const sections = part.body.split('\n');
    const bodies: string[][] = [];
    let current: string[] | null = null;
    for (const line of sections) {
      if (line === `${delimiter}--`) break;
      if (line === delimiter) {
        current = [];
        bodies.push(current);
      } else if (current) {
        current.push(line);
      }
    }
    for (const lines of bodies) {
      const found = findText(splitPart(lines.join('\n')));
      if (found !== null) return found;
    }
    return null;
  }
  if (mediaType !== 'text/plain') return null;
  const charset = parameter(contentType, 'charset') ?? 'utf-8';
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = decodeQuotedPrintable(part.body);
  else bytes = Buffer.from(part.body, 'utf8');
  return decodeCharset(bytes, charset).replace(/\r\n/g, '\n');
}

function parameter(headerValue: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(headerValue);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** Quoted-printable body: soft line breaks removed, =XX turned back into bytes. */
function decodeQuotedPrintable(body: string, isHeaderWord = false): Buffer {
  // In a body, trailing whitespace on a line is transport padding; in a Q word it is text.
  const unwrapped = isHeaderWord ? body : body.replace(/[ \t]+$/gm, '').replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unwrapped.length; i++) {
    const char = unwrapped[i] as string;
    const hex = unwrapped.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047: `=?charset?B|Q?text?=`; whitespace between adjacent encoded words is dropped. */
function decodeEncodedWords(value: string): string {
  const word = /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g;
  const joined = value.replace(/(=\?[^?]+\?[bBqQ]\?[^?]*\?=)\s+(?==\?[^?]+\?[bBqQ]\?[^?]*\?=)/g, '$1');
  // Decode adjacent words of the same charset together, so a multi-byte character split
  // across two words comes out whole.
  let result = '';
  let pendingCharset: string | null = null;
  let pending: Buffer[] = [];
  let last = 0;
  const flush = (): void => {
    if (pendingCharset !== null) result += decodeCharset(Buffer.concat(pending), pendingCharset);
    pendingCharset = null;
    pending = [];
  };
  for (let match = word.exec(joined); match !== null; match = word.exec(joined)) {
    const [whole, charsetRaw = 'utf-8', kind = 'B', text = ''] = match;
    const charset = charsetRaw.split('*')[0] ?? 'utf-8'; // drop an RFC 2231 language tag
    if (match.index > last || (pendingCharset !== null && pendingCharset !== charset.toLowerCase())) {
      flush();
      result += joined.slice(last, match.index);
    }
    pendingCharset = charset.toLowerCase();
    pending.push(kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQuotedPrintable(text.replace(/_/g, ' '), true));
    last = match.index + whole.length;
  }
  flush();
  return result + joined.slice(last);
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}
