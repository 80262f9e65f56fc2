import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { DOCS_PREFIX, OPENAPI_URL } from '../openapi/docs-page.js';
import { panelIndexHtml, sendPanelIndex } from '../panel-app.js';

/** Where things are; `GET /` answers with these until the product panel takes `/`. */
export const LINKS = {
  docs: DOCS_PREFIX,
  openapi: OPENAPI_URL,
  api: '/api/v1',
  health: '/health',
  ready: '/ready',
} as const;

const Landing = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'data'],
  properties: {
    success: { const: true },
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'version', 'links'],
      properties: {
        name: { type: 'string', examples: ['autosales API'] },
        version: { type: 'string', examples: ['0.1.0'] },
        links: {
          type: 'object',
          additionalProperties: false,
          required: Object.keys(LINKS),
          properties: Object.fromEntries(Object.keys(LINKS).map((k) => [k, { type: 'string', examples: [LINKS[k as keyof typeof LINKS]] }])),
        },
      },
    },
  },
} as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(version: string): string {
  const item = (href: string, label: string) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a> <code>${escapeHtml(href)}</code></li>`;
  return `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>autosales API</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{color:#555}</style></head>
<body>
<h1>autosales API <small>${escapeHtml(version)}</small></h1>
<p>API de gestão de vendas para concessionárias. Todas as rotas da API ficam em <code>${LINKS.api}</code> e pedem <code>Authorization: Bearer &lt;chave&gt;</code>.</p>
<ul>
${item(LINKS.docs, 'Documentação da API (Swagger UI, com "Try it out")')}
${item(LINKS.openapi, 'Documento OpenAPI 3.1 (para geradores de código e SDKs)')}
${item(LINKS.health, 'Saúde do processo')}
${item(LINKS.ready, 'Prontidão (o banco de dados responde)')}
</ul>
</body>
</html>
`;
}

/** A browser asks for HTML first; API clients (curl sends `*\/*`) get JSON. */
const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/i.test(request.headers.accept ?? '');

/**
 * GET /: the product panel for browsers (when built; otherwise a small HTML page of links), the
 * success envelope with where things are for everything else (curl, scripts).
 */
export function homeRoutes(version: string): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/',
      {
        schema: {
          tags: ['Health'],
          summary: 'Where things are: the docs, the OpenAPI document, health',
          description:
            'No key needed. Browsers (`Accept: text/html`) get the product panel (or, where it is not built, a small HTML page with the same links).',
          response: {
            200: {
              description: 'Links to the API reference, the OpenAPI document and the health checks.',
              content: { 'application/json': { schema: Landing }, 'text/html': { schema: { type: 'string' } } },
            },
          },
        },
      },
      async (request, reply) => {
        reply.header('vary', 'Accept');
        // Browsers get the product panel when it is built (npm run build), else the page of links below.
        const panel = wantsHtml(request) ? panelIndexHtml() : null;
        if (panel !== null) return sendPanelIndex(reply, panel);
        if (wantsHtml(request)) {
          return reply
            .type('text/html; charset=utf-8')
            .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
            .send(page(version));
        }
        return { success: true, data: { name: 'autosales API', version, links: LINKS } };
      },
    );
  };
}
