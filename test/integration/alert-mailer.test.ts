import { createServer } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertMailer, type WebhookDisabledAlert } from '../../src/alerts/alert-mailer.js';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.js';
import { sleep } from '../support/wait.js';

interface LogCall {
  level: 'warn' | 'error';
  obj: object;
  msg: string;
}

function fakeLogger(): { calls: LogCall[]; warn(obj: object, msg: string): void; error(obj: object, msg: string): void } {
  const calls: LogCall[] = [];
  return {
    calls,
    warn: (obj, msg) => calls.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => calls.push({ level: 'error', obj, msg }),
  };
}

/** A port nothing listens on: bind an ephemeral one, then release it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const alert: WebhookDisabledAlert = {
  to: 'gerente@concessionaria-joao.com.br',
  teamName: 'Concessionária São João',
  webhookId: '0193f0c4-a1b2-7c3e-8d4f-5a6b7c8d9e0f',
  url: 'https://crm.example.com.br/hooks/autosales?canal=vendas',
  reason: 'seis tentativas consecutivas falharam (última: HTTP 503)',
  disabledAt: '2026-03-10T14:05:00Z',
};

describe('alert mailer through a real SMTP listener', () => {
  let smtp: SmtpListener;

  beforeAll(async () => {
    smtp = await startSmtpListener();
  });

  afterAll(async () => {
    await smtp.close();
  });

  it('sends the Portuguese webhook-disabled e-mail with the right envelope, subject and body', async () => {
    const logger = fakeLogger();
    const mailer = createAlertMailer({ smtpUrl: smtp.url, logger });
    try {
      const before = smtp.messages.length;
      await mailer.webhookDisabled(alert);
      const [mail] = (await smtp.waitFor(before + 1)).slice(before);
      expect(logger.calls).toEqual([]);
      expect(mail).toBeDefined();
      if (!mail) return;

      expect(mail.from).toBe('alertas@autosales.local');
      expect(mail.to).toEqual([alert.to]);
      expect(mail.raw).toMatch(/^From: autosales <alertas@autosales\.local>\r?$/m);
      expect(mail.subject).toBe(`[autosales] Webhook desativado: ${alert.url}`);

      expect(mail.text).toContain('Concessionária São João');
      expect(mail.text).toContain(alert.url);
      expect(mail.text).toContain(alert.webhookId);
      expect(mail.text).toContain(alert.reason);
      expect(mail.text).toContain(alert.disabledAt);
      expect(mail.text).toContain(`autosales webhooks enable ${alert.webhookId}`);
      // 48 h before the disabling, in the contract's timestamp form.
      expect(mail.text).toContain(`autosales webhooks recover ${alert.webhookId} --since 2026-03-08T14:05:00Z`);
      expect(mail.text).toMatch(/desativado/);
      // Nothing secret in the message itself.
      expect(mail.raw).not.toContain('pass');
    } finally {
      mailer.close();
    }
  });

  it('uses the configured sender and survives a CR/LF in a value', async () => {
    const logger = fakeLogger();
    const mailer = createAlertMailer({ smtpUrl: smtp.url, from: 'Alertas Loja <alertas@loja.example>', logger });
    try {
      const before = smtp.messages.length;
      await mailer.webhookDisabled({ ...alert, url: 'https://x.example/h\r\nBcc: intruso@evil.example' });
      const [mail] = (await smtp.waitFor(before + 1)).slice(before);
      expect(logger.calls).toEqual([]);
      expect(mail?.from).toBe('alertas@loja.example');
      expect(mail?.to).toEqual([alert.to]);
      expect(mail?.raw).not.toMatch(/^Bcc:/im);
      expect(mail?.subject).toBe('[autosales] Webhook desativado: https://x.example/h Bcc: intruso@evil.example');
    } finally {
      mailer.close();
    }
  });

  it('decodes RFC 2047 subjects and quoted-printable / base64 bodies (listener self-check)', async () => {
    const transport = nodemailer.createTransport(smtp.url);
    try {
      const before = smtp.messages.length;
      const subject = 'Ação necessária: João 🚗 — ' + 'ç'.repeat(40);
      const qpText = 'Olá, João! Conceição, ação, 🚗.\nSegunda linha com = sinal e uma linha bem longa '.concat('x'.repeat(120), '\n');
      const b64Text = '日本語のテキスト 🚗 çãõ';
      await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject, text: qpText });
      await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', subject: 'x', text: b64Text, html: '<p>html</p>' });
      const [qp, b64] = (await smtp.waitFor(before + 2)).slice(before);
      expect(qp?.subject).toBe(subject);
      expect(qp?.raw).toMatch(/=\?UTF-8\?[BQ]\?/i);
      expect(qp?.text).toBe(qpText);
      expect(b64?.text).toBe(b64Text);
      expect(b64?.raw).toMatch(/multipart\/alternative/i);
    } finally {
      transport.close();
    }
  });
});

describe('alert mailer without delivery', () => {
  it('logs the alert at warn level when no SMTP URL is configured', async () => {
    const logger = fakeLogger();
    const mailer = createAlertMailer({ logger });
    await expect(mailer.webhookDisabled(alert)).resolves.toBeUndefined();
    mailer.close();
    expect(logger.calls).toHaveLength(1);
    const [call] = logger.calls;
    expect(call?.level).toBe('warn');
    expect(call?.obj).toMatchObject({ webhookId: alert.webhookId, url: alert.url, reason: alert.reason });
  });

  it('treats a blank SMTP URL as not configured', async () => {
    const logger = fakeLogger();
    const mailer = createAlertMailer({ smtpUrl: '  ', logger });
    await mailer.webhookDisabled(alert);
    expect(logger.calls.map((c) => c.level)).toEqual(['warn']);
  });

  it('logs at warn level and sends nothing when the team has no alert address', async () => {
    const smtp = await startSmtpListener();
    try {
      const logger = fakeLogger();
      const mailer = createAlertMailer({ smtpUrl: smtp.url, logger });
      await expect(mailer.webhookDisabled({ ...alert, to: null })).resolves.toBeUndefined();
      mailer.close();
      expect(logger.calls).toHaveLength(1);
      expect(logger.calls[0]?.level).toBe('warn');
      expect(logger.calls[0]?.obj).toMatchObject({ webhookId: alert.webhookId, url: alert.url, reason: alert.reason });
      await sleep(200); // nothing to wait for: a stray send would have arrived by now
      expect(smtp.messages).toHaveLength(0);
      expect(JSON.stringify(logger.calls)).not.toContain('pass');
    } finally {
      await smtp.close();
    }
  });

  it('redacts a password embedded in the webhook URL in logs', async () => {
    const logger = fakeLogger();
    const mailer = createAlertMailer({ logger });
    await mailer.webhookDisabled({ ...alert, url: 'https://hookuser:hookpw-9931@crm.example.com/h' });
    expect(JSON.stringify(logger.calls)).not.toContain('hookpw-9931');
    expect(logger.calls[0]?.obj).toMatchObject({ url: 'https://hookuser:***@crm.example.com/h' });
  });

  it('logs an error and does not throw when the SMTP server is unreachable, without leaking the password', async () => {
    const port = await closedPort();
    const password = 'Sup3r-Secret_p@ss';
    const smtpUrl = `smtp://alertbot:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    const logger = fakeLogger();
    const mailer = createAlertMailer({ smtpUrl, logger });
    await expect(mailer.webhookDisabled(alert)).resolves.toBeUndefined();
    mailer.close();

    expect(logger.calls).toHaveLength(1);
    const [call] = logger.calls;
    expect(call?.level).toBe('error');
    expect(call?.obj).toMatchObject({ webhookId: alert.webhookId, url: alert.url, reason: alert.reason, smtp: `smtp://127.0.0.1:${port}` });
    expect(call?.obj).toMatchObject({ err: { code: 'ESOCKET' } });

    const logged = JSON.stringify(logger.calls);
    for (const form of [password, encodeURIComponent(password), Buffer.from(password).toString('base64'), 'Sup3r']) {
      expect(logged).not.toContain(form);
    }
    expect(logged).not.toContain(smtpUrl);
  });

  it('logs an error without the password when the SMTP server rejects the login', async () => {
    // A server that answers every AUTH with 535 and echoes what it received.
    const { SMTPServer } = await import('smtp-server');
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        callback(new Error(`535 bad credentials for ${auth.username}/${auth.password ?? ''}`));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const password = 'EchoedPassw0rd';
      const logger = fakeLogger();
      const mailer = createAlertMailer({ smtpUrl: `smtp://alertbot:${password}@127.0.0.1:${port}`, logger });
      await expect(mailer.webhookDisabled(alert)).resolves.toBeUndefined();
      mailer.close();
      expect(logger.calls.map((c) => c.level)).toEqual(['error']);
      expect(logger.calls[0]?.obj).toMatchObject({ err: { code: 'EAUTH' } });
      expect(JSON.stringify(logger.calls)).not.toContain(password);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
