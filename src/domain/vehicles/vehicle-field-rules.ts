import { messages, problemsOf, textOf, validationError, type FieldProblem } from '../shared/errors.js';
import { canonicalChassis, canonicalPlate, canonicalRenavam } from './vehicle-identifiers.js';

/**
 * The vehicle rules that need no database (plate, RENAVAM and chassis formats), on a body the schema
 * refused: their problems join the schema's in one answer, so a form learns every invalid field at once.
 */
export function vehicleFieldProblems(body: unknown): FieldProblem[] {
  const rule = (field: string, valid: (v: string) => unknown, message: string) => () => {
    const v = textOf(body, field);
    if (v !== null && !valid(v)) throw validationError(message, field);
  };
  return problemsOf(
    rule('plate', canonicalPlate, messages.plateInvalid),
    rule('renavam', canonicalRenavam, messages.renavamInvalid),
    rule('chassis', canonicalChassis, messages.chassisInvalid),
  );
}
