/**
 * The SQL of the exact search path (migration 0012, SQLite): a client search for a full tax number is
 * answered from equality indexes on the normalized CPF and CNPJ instead of the substring index, plus
 * the few rows flagged here, whose searchable text could hold such a number somewhere else. The flags are partial-index predicates, not stored columns: nothing to backfill or
 * keep in step, and a query reaches the index only by repeating the predicate verbatim (SQLite proves
 * a partial index usable by comparing expressions), so the migration and the repository both take it
 * from here.
 *
 * How a flag is computed: the row's search_text (folded parts joined by U+0001) loses every whole
 * part equal to one of the row's own keys, in the form it is indexed under; what is left is flagged
 * when it still holds something a searched key could match. A part is removed only when its key is
 * well formed, so any text the key columns do not explain stays and is looked at. A row not flagged
 * therefore matches a full-key query only inside its own key parts, i.e. only when its key equals the
 * query (or, for a CNPJ, holds the CPF-length query at one of its four offsets). Results are still
 * checked with the plain LIKE, so a stale or odd key never adds a row; and the flag errs only towards
 * flagging, which costs time, never a row.
 */

/** Number of characters of a CPF, and the offsets at which a CPF-length string fits in a 14-character CNPJ. */
export const CPF_LENGTH = 11;
export const CNPJ_WINDOWS = [1, 2, 3, 4] as const;

const U1 = 'char(1)';
const repeat = (s: string, n: number) => s.repeat(n);

/** Removes from `text` every whole part equal to `part` when `when` holds (else the replace is a no-op: U+0001 U+0001 by itself). */
const dropPart = (text: string, part: string, when: string): string =>
  `replace(${text}, ${U1} || coalesce(case when ${when} then ${part} end, '') || ${U1}, ${U1} || ${U1})`;

/** Punctuation a typed tax number may carry and normalizing strips. */
const strip = (value: string) => `replace(replace(replace(replace(${value}, '.', ''), '/', ''), '-', ''), ' ', '')`;

/**
 * Clients: the search text outside the row's CPF and CNPJ parts holds an 11-digit run or a punctuated
 * CPF or CNPJ (`ddd.ddd.ddd-dd`, `dd.ddd.ddd/dddd-dd`): only such rows can match a full CPF or CNPJ
 * query other than through their own tax numbers. The parts removed: the CPF key when it is 11
 * digits; the typed CPF when it is plain ASCII digits and punctuation (its folded part is then itself)
 * normalizing to that key; the CNPJ key when it is 14 of [0-9A-Z] (folded: lower case); the typed CNPJ
 * likewise.
 */
export const CLIENT_TAX_DIGITS_FLAG = (() => {
  const cpfKey = `cpf_normalized glob '${repeat('[0-9]', 11)}'`;
  const cnpjKey = `cnpj_normalized glob '${repeat('[0-9A-Z]', 14)}'`;
  const cpfTyped = `${cpfKey} and cpf not glob '*[^0-9./ -]*' and ${strip('cpf')} = cpf_normalized`;
  const cnpjTyped = `${cnpjKey} and cnpj not glob '*[^0-9A-Za-z./ -]*' and upper(${strip('cnpj')}) = cnpj_normalized`;
  let text = `(${U1} || search_text || ${U1})`;
  text = dropPart(text, 'cpf_normalized', cpfKey);
  text = dropPart(text, 'cpf', cpfTyped);
  text = dropPart(text, 'lower(cnpj_normalized)', cnpjKey);
  text = dropPart(text, 'lower(cnpj)', cnpjTyped);
  const d = '[0-9]';
  const shapes = [
    repeat(d, 11),
    `${repeat(d, 3)}.${repeat(d, 3)}.${repeat(d, 3)}-${repeat(d, 2)}`,
    `${repeat(d, 2)}.${repeat(d, 3)}.${repeat(d, 3)}/${repeat(d, 4)}-${repeat(d, 2)}`,
  ];
  return `(${shapes.map((g) => `${text} glob '*${g}*'`).join(' or ')})`;
})();

/** A CPF-length window of the CNPJ (1-based offset), as indexed by migration 0012. */
export const cnpjWindow = (offset: (typeof CNPJ_WINDOWS)[number]) => `substr(cnpj_normalized, ${offset}, ${CPF_LENGTH})`;

/**
 * The window indexes' predicate: only a CNPJ long enough holds a CPF-length window (a shorter one
 * never equals an 11-digit query). Not `is not null`, which SQLite would rather serve as a range of
 * the (team_id, cnpj_normalized) index: every CNPJ of the team.
 */
export const CNPJ_WINDOW_ROWS = `length(cnpj_normalized) >= ${CPF_LENGTH}`;
