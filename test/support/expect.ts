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
 * are checked when `extras` names them; otherwise they may be present or not. `errors`, when
 * present, must start with `field` and the message.
 */
export function expectError(res: Answer, status: number, code: string, message?: string, extras?: { field?: string | undefined; details?: unknown }): void {
  const detail = `${res.status} ${res.text ?? JSON.stringify(res.body)}`;
  expect(res.status, detail).toBe(status);
  const { field, details, errors, ...rest } = (res.body?.error ?? {}) as Record<string, unknown>;
  // `errors` (every invalid field at once) starts with the error's own field and message.
  if (errors !== undefined) expect((errors as unknown[])[0], detail).toEqual({ field, message: res.body.error.message });
  expect({ ...res.body, error: rest }, detail).toEqual({ success: false, error: { code, message: message ?? expect.any(String) } });
  if (message === undefined) expect(res.body.error.message.length, detail).toBeGreaterThan(0);
  if (extras && 'field' in extras) expect(field, detail).toBe(extras.field);
  if (extras && 'details' in extras) expect(details, detail).toEqual(extras.details);
}
