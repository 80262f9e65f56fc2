import { validationError } from '../domain/shared/errors.js';

/**
 * A create's `type` is a required enum whose absence the contract answers with the allowed values
 * in the message; the schema leaves it optional so that this check (not a generic one) answers.
 */
export function requireType(body: { type?: string }, allowed: readonly string[]): void {
  if (body.type === undefined) throw validationError(`Campo 'type' é obrigatório. Use: ${allowed.join(', ')}`, 'type');
}
