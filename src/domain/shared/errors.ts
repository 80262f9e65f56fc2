/** Error codes of the contract, plus the ones DECISIONS.md and our HTTP layer add. */
export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'DUPLICATE_ENTRY'
  | 'INTERNAL_ERROR'
  | 'RATE_LIMIT_EXCEEDED'
  | 'NOT_IMPLEMENTED'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'SERVICE_UNAVAILABLE'
  | 'IDEMPOTENCY_CONFLICT'
  | 'REQUEST_TIMEOUT'
  | 'HEADERS_TOO_LARGE';

/** Codes only the panel's routes (/panel/api) send; the public API and its SDK never see them. */
export type PanelErrorCode = 'CSRF_INVALID';

/** Optional members of the error envelope, beside the contract's `code` and `message`. */
export interface ErrorExtras {
  /** The one field (body path such as `address.city`, or query parameter) the error is about. */
  field?: string;
  /** Machine-readable detail, e.g. `{ allowed: [...] }` for `Fase inválida`. */
  details?: Record<string, unknown>;
  /** Every invalid field found at once (the first is the error's own `field` and message). */
  errors?: FieldProblem[];
}

/** One invalid field and its Portuguese message. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A failure with a place in the contract: status, code and Portuguese message go to the client as they are. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode | PanelErrorCode,
    message: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationError = (message: string, field?: string, details?: Record<string, unknown>) =>
  new AppError(400, 'VALIDATION_ERROR', message, { ...(field ? { field } : {}), ...(details ? { details } : {}) });
const isFieldCheck = (error: unknown): error is AppError => error instanceof AppError && error.statusCode === 400 && error.code === 'VALIDATION_ERROR';

/** The field checks refused so far: the first error, and every field with its first message. */
class Problems {
  private first: AppError | undefined;
  private readonly found: FieldProblem[] = [];

  /** Notes a refused field check; any other error is thrown on. */
  note(error: unknown): void {
    if (!isFieldCheck(error)) throw error;
    this.first ??= error;
    const own = error.extras.errors ?? (error.extras.field === undefined ? [] : [{ field: error.extras.field, message: error.message }]);
    for (const problem of own) if (!this.found.some((p) => p.field === problem.field)) this.found.push(problem);
  }

  /** Throws the first error with `errors` listing them all, if any was noted. */
  done(): void {
    if (this.first)
      throw new AppError(400, 'VALIDATION_ERROR', this.first.message, { ...this.first.extras, ...(this.found.length ? { errors: this.found } : {}) });
  }
}

/**
 * Runs independent checks of one input and reports every invalid field at once: each check that
 * throws a 400 VALIDATION_ERROR is noted and the next one runs; then the first such error is thrown
 * with `errors` listing all of them (one per field, in the order checked). Any other error is thrown
 * at once. Async checks run one after the other.
 */
export async function checkAll(...checks: Array<() => unknown>): Promise<void> {
  const problems = new Problems();
  for (const check of checks) {
    try {
      await check();
    } catch (error) {
      problems.note(error);
    }
  }
  problems.done();
}

/** checkAll for synchronous checks. */
export function checkAllNow(...checks: Array<() => void>): void {
  const problems = new Problems();
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      problems.note(error);
    }
  }
  problems.done();
}

/**
 * The problems of the checks that need no database, for a body the schema already refused (so every
 * invalid field comes in one answer): the checks run as checkAllNow runs them, and their problems are
 * returned instead of thrown.
 */
export function problemsOf(...checks: Array<() => void>): FieldProblem[] {
  try {
    checkAllNow(...checks);
    return [];
  } catch (error) {
    return isFieldCheck(error) ? (error.extras.errors ?? []) : [];
  }
}

/** A member of a body that may be anything (the schema refused the body), when it is a string. */
export const textOf = (body: unknown, field: string): string | null => {
  const v = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' ? v : null;
};

export const notFound = (message: string) => new AppError(404, 'NOT_FOUND', message);
export const duplicateEntry = (message: string, field?: string) => new AppError(422, 'DUPLICATE_ENTRY', message, field ? { field } : {});

export const messages = {
  unauthorized: 'Chave de API ausente ou inválida',
  forbidden: 'Esta chave de API não tem permissão para este recurso',
  internal: 'Erro interno do servidor',
  routeNotFound: 'Rota não encontrada',
  methodNotAllowed: 'Método não permitido para esta rota',
  notImplemented: 'Este endpoint ainda não está disponível',
  invalidJson: 'JSON inválido',
  bodyNotObject: 'O corpo da requisição deve ser um objeto JSON',
  unsupportedMediaType: "Content-Type deve ser 'application/json'",
  charsetNotUtf8: "Content-Type deve ser 'application/json' em UTF-8 (charset=utf-8 ou nenhum charset)",
  payloadTooLarge: 'O corpo da requisição excede o limite de 1 MiB',
  noFieldToUpdate: 'Nenhum campo para atualizar',
  dealNotFound: 'Negócio não encontrado',
  clientNotFound: 'Cliente não encontrado',
  invalidPhase: 'Fase inválida',
  cpfInvalid: 'CPF inválido',
  cnpjInvalid: 'CNPJ inválido',
  cpfTaken: 'CPF já cadastrado',
  cnpjTaken: 'CNPJ já cadastrado',
  databaseUnavailable: 'Banco de dados indisponível',
  vehicleNotFound: 'Veículo não encontrado',
  plateInvalid: 'Placa inválida',
  renavamInvalid: 'RENAVAM inválido',
  chassisInvalid: 'Chassi inválido',
  plateTaken: 'Placa já cadastrada',
  chassisTaken: 'Chassi já cadastrado',
  renavamTaken: 'RENAVAM já cadastrado',
  activityNotFound: 'Atividade não encontrada',
  financialNotFound: 'Registro financeiro não encontrado',
  storeNotFound: 'Loja não encontrada',
  storeInactive: 'Loja inativa',
} as const;
