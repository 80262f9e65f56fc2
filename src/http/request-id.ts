import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What we accept from a caller (or a proxy in front of us): short, and safe to echo in a header and a log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane (a repeated header arrives joined by ", " and is not), else a new UUID. */
export function requestIdFor(req: Pick<IncomingMessage, 'headers'>): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Fastify's own request-id options. `requestIdHeader: false` because Fastify would take the header
 * verbatim (any length, any bytes); `genReqId` validates it instead.
 */
export const requestIdOptions = {
  requestIdHeader: false,
  genReqId: requestIdFor,
} as const;
