import { expect } from 'vitest';

/** What every test helper needs of an answer. */
interface Answer {
  status: number;
  body: any;
  text?: string;
}

/**
 * The error envelope, exactly: `{success: false, error: {code, message}}` with this status, and the
 * message when given (otherwise any non-empty text). The one error assertion of the suite.
 */
export function expectError(res: Answer, status: number, code: string, message?: string): void {
  const detail = `${res.status} ${res.text ?? JSON.stringify(res.body)}`;
  expect(res.status, detail).toBe(status);
  expect(res.body, detail).toEqual({ success: false, error: { code, message: message ?? expect.any(String) } });
  if (message === undefined) expect(res.body.error.message.length, detail).toBeGreaterThan(0);
}
