import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The panel's build (packages/panel, `npm run build`), from src/http/ and dist/http/ alike. */
const PANEL_DIST = fileURLToPath(new URL('../../packages/panel/dist/', import.meta.url));

/**
 * The panel's first path segments. A browser opening any of these (a bookmark, a reload, a link
 * from an invitation) gets the app's index.html and the app routes on the client. Every other
 * unknown path stays the API's JSON 404, so typos under /api never turn into an HTML page.
 */
export const PANEL_PAGES = ['entrar', 'definir-senha', 'inicio', 'negocios', 'veiculos', 'clientes', 'agenda', 'financeiro', 'configuracoes'] as const;

/**
 * Only this origin: the app, its styles and its bundled font come from here, and it talks to
 * /panel/api only. Inline styles are allowed for the style attributes React sets.
 */
export const PANEL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

let cachedIndex: string | null | undefined;

/** The panel's index.html, read once; null when the panel was not built (then GET / keeps its landing page). */
export function panelIndexHtml(): string | null {
  if (cachedIndex === undefined) {
    const file = `${PANEL_DIST}index.html`;
    cachedIndex = existsSync(file) ? readFileSync(file, 'utf8') : null;
  }
  return cachedIndex;
}

/** Sends the app's entry page: never cached, so a new release is picked up on the next visit. */
export function sendPanelIndex(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('content-security-policy', PANEL_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .send(html);
}

/**
 * The panel's files: /assets/* (content-hashed names, cached for a year as immutable) and the
 * few unhashed files of its public/ folder (revalidated), one route per file found at start;
 * the client routes of PANEL_PAGES answer index.html. Nothing when the panel is not built.
 */
export async function registerPanelApp(app: FastifyInstance): Promise<void> {
  const html = panelIndexHtml();
  if (html === null) return;
  await app.register(fastifyStatic, {
    root: PANEL_DIST,
    prefix: '/',
    wildcard: false,
    index: false,
    globIgnore: ['index.html', '**/*.map'],
    schemaHide: true,
    decorateReply: false,
    cacheControl: false,
    setHeaders: (reply, path) => {
      const hashed = path.startsWith(`${PANEL_DIST}assets/`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      reply.header('x-content-type-options', 'nosniff');
    },
  });
  for (const page of PANEL_PAGES) {
    for (const url of [`/${page}`, `/${page}/*`]) {
      app.get(url, { schema: { hide: true } }, async (_request, reply) => sendPanelIndex(reply, html));
    }
  }
}
