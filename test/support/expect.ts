import { expect } from 'vitest';

/** What every test helper needs of an answer. */
interface Answer {
  status: number;
  body: any;
  text?: string;
}

/**
 * The error envelope with this status, code and message (any non-empty text when no message is
 * given): the one error assertion of the suite. `field` and `details` (our documented additions)
 * are checked when `extras` names them; otherwise they may be present or not.
 */
export function expectError(res: Answer, status: number, code: string, message?: string, extras?: { field?: string | undefined; details?: unknown }): void {
  const detail = `${res.status} ${res.text ?? JSON.stringify(res.body)}`;
  expect(res.status, detail).toBe(status);
  const { field, details, ...rest } = (res.body?.error ?? {}) as Record<string, unknown>;
  expect({ ...res.body, error: rest }, detail).toEqual({ success: false, error: { code, message: message ?? expect.any(String) } });
  if (message === undefined) expect(res.body.error.message.length, detail).toBeGreaterThan(0);
  if (extras && 'field' in extras) expect(field, detail).toBe(extras.field);
  if (extras && 'details' in extras) expect(details, detail).toEqual(extras.details);
}
