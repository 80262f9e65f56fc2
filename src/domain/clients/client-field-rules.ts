import { messages, problemsOf, textOf, validationError, type FieldProblem } from '../shared/errors.js';
import { isValidCnpj, isValidCpf } from '../shared/tax-id.js';

/**
 * The client rules that need no database (CPF and CNPJ check digits), on a body the schema refused:
 * their problems join the schema's in one answer, so a form learns every invalid field at once.
 */
export function clientFieldProblems(body: unknown): FieldProblem[] {
  const cpf = textOf(body, 'cpf');
  const cnpj = textOf(body, 'cnpj');
  return problemsOf(
    () => {
      if (cpf !== null && cpf !== '' && !isValidCpf(cpf)) throw validationError(messages.cpfInvalid, 'cpf');
    },
    () => {
      if (cnpj !== null && cnpj !== '' && !isValidCnpj(cnpj)) throw validationError(messages.cnpjInvalid, 'cnpj');
    },
  );
}
