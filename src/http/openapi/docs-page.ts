import { readdirSync, readFileSync } from 'node:fs';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const DOCS_PREFIX = '/docs';
export const OPENAPI_URL = '/api/v1/openapi.json';
/** The repository's docs/, from src/http/openapi/ or dist/http/openapi/ alike (the package ships docs/). */
const DOCS_DIR = new URL('../../../docs/', import.meta.url);

/**
 * Every docs/*.md page by name (api.md, webhooks.md, …), read once; none when this installation has
 * no docs/ (then their paths are plain 404s). Served at /docs/<name>, so the pages' relative links
 * to one another work in the browser too.
 */
function readDocPages(): Map<string, string> {
  const pages = new Map<string, string>();
  try {
    for (const name of readdirSync(DOCS_DIR)) {
      if (/^[a-z0-9-]+\.md$/.test(name)) pages.set(name, readFileSync(new URL(name, DOCS_DIR), 'utf8'));
    }
  } catch {
    /* no docs/ here */
  }
  return pages;
}

/**
 * Only this origin, for everything: the page works offline and a browser refuses any external
 * script, style, image, font or fetch even if a future swagger-ui release adds one.
 * (The logo is a data: URL.)
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // swagger-ui sets a few inline styles; scripts stay strictly 'self'.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * GET /docs: Swagger UI over the OpenAPI document at /api/v1/openapi.json, without authentication,
 * every asset served from the swagger-ui-dist copy inside @fastify/swagger-ui (no CDN). "Try it out"
 * sends requests to this server with the Bearer key entered under "Authorize" (kept across reloads).
 * Its routes are hidden from the document (`schema: { hide: true }` in the plugin, and untagged).
 * GET /docs/api.md (and the other docs/*.md pages): the written reference for integrators, which the
 * document's description links to.
 */
export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    theme: { title: 'autosales API' },
    staticCSP: CSP,
    uiConfig: {
      // `urls` because the plugin forces `url` to its own ./json copy; the canonical URL is shown instead.
      urls: [{ url: OPENAPI_URL, name: 'autosales API v1' }],
      // No badge fetched from validator.swagger.io.
      validatorUrl: null,
      persistAuthorization: true,
      displayRequestDuration: true,
      filter: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
    },
  });

  for (const [name, text] of readDocPages()) {
    app.get(`${DOCS_PREFIX}/${name}`, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/markdown; charset=utf-8')
        .header('content-disposition', `inline; filename="${name}"`)
        .header('x-content-type-options', 'nosniff')
        .send(text),
    );
  }
}
