import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's `chromium` package (.ci/run installs it). Without it, browser tests are skipped, not failed. */
export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Screenshots for reviewers (gitignored). */
export const SCREENSHOTS = join(ROOT, 'test-output', 'screenshots');
/** The panel's build (root `npm run build`). */
export const PANEL_DIST = join(ROOT, 'packages', 'panel', 'dist');

/**
 * Headless Chromium that talks to nothing but the pages it is sent to. Its interface language is
 * Brazilian Portuguese (`LANGUAGE`, with Debian's `chromium-l10n`), so date inputs in screenshots read
 * dd/mm/aaaa as a store's browser shows them; `--lang` is ignored by headless Chromium.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    env: { ...process.env, LANGUAGE: 'pt-BR' },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface PageWatch {
  /** Every URL the page requested. */
  requests: string[];
  /** Console errors and warnings, page errors, failed requests and HTTP errors, unless `expected` says so. */
  problems: string[];
}

/** Records what a page asked for and what went wrong; `expected` lets known answers (a 401 before sign-in) through. */
export function watchPage(page: Page, expected: (text: string) => boolean = () => false): PageWatch {
  const watch: PageWatch = { requests: [], problems: [] };
  const note = (text: string) => {
    if (!expected(text)) watch.problems.push(text);
  };
  page.on('request', (r) => watch.requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') note(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => note(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => note(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) note(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return watch;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
