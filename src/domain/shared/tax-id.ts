// Brazilian taxpayer numbers: CPF (individuals) and CNPJ (companies, numeric or alphanumeric).

const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Strips the punctuation people type (`.`, `/`, `-`, whitespace) and upper-cases letters. Does not validate. */
export function normalizeTaxId(raw: string): string {
  return raw.replace(/[./\-\s]/g, '').toUpperCase();
}

// Mod-11 check digit shared by CPF and CNPJ: remainders 0 and 1 both map to 0.
function mod11Digit(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * weights[i]!;
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

// Sequences like 00000000000 pass the mod-11 arithmetic but are never issued.
function allSameChar(s: string): boolean {
  return /^(.)\1*$/.test(s);
}

/** True when `raw` (bare or punctuated, e.g. `123.456.789-09`) is a CPF with valid check digits. */
export function isValidCpf(raw: string): boolean {
  const cpf = normalizeTaxId(raw);
  if (!/^\d{11}$/.test(cpf) || allSameChar(cpf)) return false;
  const digits = [...cpf].map(Number);
  const d1 = mod11Digit(digits.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11Digit(digits.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return digits[9] === d1 && digits[10] === d2;
}

/**
 * True when `raw` is a CNPJ with valid check digits, in the classic numeric form or the
 * alphanumeric form (IN RFB 2.229/2024): 12 chars in [0-9A-Z] followed by 2 numeric check digits.
 */
export function isValidCnpj(raw: string): boolean {
  const cnpj = normalizeTaxId(raw);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || allSameChar(cnpj)) return false;
  // Per IN RFB 2.229/2024 each char is worth its ASCII code minus 48, so '0'..'9' keep their value and 'A' = 17.
  const values = [...cnpj.slice(0, 12)].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11Digit(values, CNPJ_WEIGHTS_1);
  const d2 = mod11Digit([...values, d1], CNPJ_WEIGHTS_2);
  return cnpj.charCodeAt(12) - 48 === d1 && cnpj.charCodeAt(13) - 48 === d2;
}
