import nodemailer from 'nodemailer';

/** What the delivery worker knows when it disables a webhook. */
export interface WebhookDisabledAlert {
  /** The team's alert address; null when the team has none. */
  to: string | null;
  teamName: string;
  webhookId: string;
  url: string;
  reason: string;
  /** ISO 8601 UTC time of the disabling. */
  disabledAt: string;
}

export interface AlertMailer {
  /** Sends (or, without SMTP or a recipient, logs) the alert. Never rejects. */
  webhookDisabled(alert: WebhookDisabledAlert): Promise<void>;
  close(): void;
}

export interface AlertLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const DEFAULT_FROM = 'autosales <alertas@autosales.local>';

/**
 * How far back the suggested `recover --since` goes. With the default retry schedule a
 * delivery reaches its sixth attempt about 38.5 h after its first one, so 48 h before the
 * disabling covers the whole failure; `recover` only sends undelivered events, so starting
 * earlier than needed does not resend anything the receiver already accepted.
 */
const RECOVER_LOOKBACK_MS = 48 * 60 * 60 * 1000;

/**
 * Timeouts so a dead or silent SMTP server cannot hold the delivery worker for minutes
 * (nodemailer's defaults are 2 min to connect and 10 min of socket inactivity). Query
 * parameters of the SMTP URL (e.g. `?connectionTimeout=30000`) still take precedence.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createAlertMailer(options: { smtpUrl?: string; from?: string; logger: AlertLogger }): AlertMailer {
  const { logger } = options;
  const from = options.from?.trim() || DEFAULT_FROM;
  const smtpUrl = options.smtpUrl?.trim() || undefined;
  const secrets = smtpUrl ? smtpSecrets(smtpUrl) : [];
  const smtpTarget = smtpUrl ? describeSmtp(smtpUrl) : undefined;

  let transport: ReturnType<typeof nodemailer.createTransport> | null = null;
  if (smtpUrl) {
    try {
      // Created once; the URL's own settings (host, port, auth, smtps) win over the timeouts.
      transport = nodemailer.createTransport({ ...SMTP_TIMEOUTS, url: smtpUrl });
    } catch (error) {
      logger.error({ smtp: smtpTarget, err: safeError(error, secrets) }, 'SMTP_URL inválida: alertas por e-mail serão apenas registrados no log');
    }
  }

  return {
    async webhookDisabled(alert) {
      const context = alertContext(alert);
      if (!transport) {
        logger.warn({ ...context, alert: 'webhook_disabled' }, 'webhook desativado (SMTP não configurado: alerta apenas registrado no log)');
        return;
      }
      if (!alert.to) {
        logger.warn({ ...context, alert: 'webhook_disabled' }, 'webhook desativado (equipe sem e-mail de alerta: alerta apenas registrado no log)');
        return;
      }
      try {
        const message = renderWebhookDisabled(alert);
        await transport.sendMail({ from, to: alert.to, subject: message.subject, text: message.text });
      } catch (error) {
        logger.error(
          { ...context, to: alert.to, smtp: smtpTarget, err: safeError(error, secrets) },
          'falha ao enviar o e-mail de alerta de webhook desativado',
        );
      }
    },
    close() {
      try {
        transport?.close();
      } catch {
        // closing is best effort
      }
    },
  };
}

/** The Portuguese alert e-mail. Exported for previews and tests. */
export function renderWebhookDisabled(alert: WebhookDisabledAlert): { subject: string; text: string } {
  const url = oneLine(alert.url);
  const id = oneLine(alert.webhookId);
  const when = describeTime(alert.disabledAt);
  const since = suggestedSince(alert.disabledAt);
  const text = [
    `Olá, equipe ${oneLine(alert.teamName)},`,
    '',
    'Um webhook da sua equipe foi desativado automaticamente porque as entregas de eventos',
    'falharam em todas as tentativas.',
    '',
    `Webhook:     ${url}`,
    `ID:          ${id}`,
    `Motivo:      ${oneLine(alert.reason)}`,
    `Desativado:  ${when}`,
    '',
    'Enquanto estiver desativado, o webhook não recebe nenhum evento. Os eventos que não',
    'foram entregues ficam guardados e podem ser enviados de novo.',
    '',
    'Depois de corrigir o endereço de destino (ele deve responder com status 2xx em até',
    '5 segundos), reative o webhook:',
    '',
    `    autosales webhooks enable ${id}`,
    '',
    'e, em seguida, envie os eventos que ele perdeu:',
    '',
    `    autosales webhooks recover ${id} --since ${since}`,
    '',
    'Use em --since um horário anterior à primeira falha. Apenas eventos ainda não entregues',
    'são reenviados, então um horário mais antigo não duplica entregas já aceitas.',
    'O histórico de tentativas pode ser consultado com:',
    '',
    `    autosales webhooks attempts ${id}`,
    '',
    '-- ',
    'autosales (mensagem automática, não responda)',
    '',
  ].join('\n');
  return { subject: `[autosales] Webhook desativado: ${url}`, text };
}

function alertContext(alert: WebhookDisabledAlert): Record<string, string> {
  return {
    webhookId: alert.webhookId,
    url: redactUrl(alert.url),
    reason: alert.reason,
    team: alert.teamName,
    disabledAt: alert.disabledAt,
  };
}

/** Header-safe single line (a CR/LF in a value must not reach the subject or break the layout). */
function oneLine(value: string): string {
  return String(value)
    .replace(/[\r\n\t]+/g, ' ')
    .trim();
}

function describeTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return oneLine(iso);
  try {
    const local = new Intl.DateTimeFormat('pt-BR', {
      timeZone: 'America/Sao_Paulo',
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(date);
    return `${oneLine(iso)} (${local}, horário de Brasília)`;
  } catch {
    return oneLine(iso);
  }
}

function suggestedSince(disabledAt: string): string {
  const time = new Date(disabledAt).getTime();
  if (Number.isNaN(time)) return '<data e hora ISO 8601 anterior à primeira falha>';
  return new Date(time - RECOVER_LOOKBACK_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A URL for logs: any user-info password replaced. */
function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.password) return oneLine(raw);
    url.password = '***';
    return url.toString();
  } catch {
    return oneLine(raw);
  }
}

/** `smtp://host:port` without credentials, for logs. */
function describeSmtp(smtpUrl: string): string | undefined {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

/** Every form in which the SMTP password (and user:password pair) could show up in a message. */
function smtpSecrets(smtpUrl: string): string[] {
  let password: string;
  let username = '';
  try {
    const url = new URL(smtpUrl);
    password = url.password;
    username = url.username;
  } catch {
    // Unparseable: fall back to the text between the first "//user:" and the last "@".
    const match = /\/\/[^:/@]*:(.*)@/.exec(smtpUrl);
    password = match?.[1] ?? '';
  }
  if (!password) return [];
  const forms = new Set<string>([password]);
  try {
    forms.add(decodeURIComponent(password));
  } catch {
    // keep the raw form only
  }
  for (const form of [...forms]) {
    forms.add(Buffer.from(form, 'utf8').toString('base64'));
    if (username) {
      const user = safeDecode(username);
      forms.add(Buffer.from(`\u0000${user}\u0000${form}`, 'utf8').toString('base64')); // AUTH PLAIN
    }
  }
  return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A plain, log-safe summary of a send error. The raw error is never logged: nodemailer
 * errors carry extra fields, and a serialiser would print all of them.
 */
function safeError(error: unknown, secrets: string[]): Record<string, string | number> {
  const scrub = (text: string): string => secrets.reduce((acc, secret) => acc.split(secret).join('***'), text);
  if (!(error instanceof Error)) return { message: scrub(String(error)) };
  const fields = error as Error & { code?: unknown; command?: unknown; responseCode?: unknown };
  const summary: Record<string, string | number> = { type: error.name, message: scrub(error.message) };
  if (typeof fields.code === 'string') summary.code = fields.code;
  if (typeof fields.command === 'string') summary.command = scrub(fields.command.split(' ').slice(0, 2).join(' '));
  if (typeof fields.responseCode === 'number') summary.responseCode = fields.responseCode;
  return summary;
}
