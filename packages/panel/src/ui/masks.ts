import { format as maskFormat } from '@react-input/mask/utils';

/** The kinds of masked document and contact fields the panel's forms have. */
export type MaskKind = 'cpf' | 'cnpj' | 'cep' | 'phone';

const DIGIT = { _: /\d/ };
const PHONE_LONG = '(__) _____-____';
const PHONE_SHORT = '(__) ____-____';

const digitsOf = (s: string) => s.replace(/\D/g, '');

const EXACT: Record<MaskKind, { digits: number[]; mask: (n: number) => string }> = {
  cpf: { digits: [11], mask: () => '___.___.___-__' },
  cnpj: { digits: [14], mask: () => '__.___.___/____-__' },
  cep: { digits: [8], mask: () => '_____-___' },
  phone: { digits: [10, 11], mask: (n) => (n === 11 ? PHONE_LONG : PHONE_SHORT) },
};

/** The placeholder of each kind: its mask with zeros. */
export const placeholderOf = (kind: MaskKind) => EXACT[kind].mask(11).replace(/_/g, '0');

/**
 * What a masked field shows for whatever was typed or pasted: its digits (as many as the kind has)
 * with the punctuation filled in so far (`5284` → `528.4`, `11987654321` → `(11) 98765-4321`).
 * Done on every change, so the field never depends on the keystrokes' timing.
 */
export function maskText(kind: MaskKind, typed: string): string {
  const rule = EXACT[kind];
  const digits = digitsOf(typed).slice(0, Math.max(...rule.digits));
  return digits === '' ? '' : maskFormat(digits, { mask: rule.mask(digits.length), replacement: DIGIT });
}

/**
 * A stored document or phone as people read it: `52841739619` → `528.417.396-19`. Only a value with
 * exactly the digits the kind has is reformatted; anything else (a foreign phone, a partial number)
 * is shown as stored.
 */
export function formatDoc(kind: MaskKind, raw: string | null | undefined): string {
  if (!raw) return '';
  const digits = digitsOf(raw);
  const rule = EXACT[kind];
  if (!rule.digits.includes(digits.length) || /[^\d\s().\-/]/.test(raw)) return raw;
  return maskFormat(digits, { mask: rule.mask(digits.length), replacement: DIGIT });
}

/** formatDoc for display: '—' when there is nothing. */
export function showDoc(kind: MaskKind, raw: string | null | undefined): string {
  return raw ? formatDoc(kind, raw) : '—';
}

/** A plate as typed, in upper case and without spaces (the server keeps it as sent). */
export function plateInput(raw: string): string {
  return raw.toLocaleUpperCase('pt-BR').replace(/\s+/g, '').slice(0, 8);
}

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const grouped = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/** A number as the money input shows it (`1234.5` → `R$ 1.234,50`); '' for none. */
export function moneyInput(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : money.format(value).replace(/\s/g, ' ');
}

/**
 * What a money field shows for whatever was typed: reais grouped by thousands and up to two decimals
 * after the comma (`84900` → `R$ 84.900`, `84900,5` → `R$ 84.900,5`).
 */
export function moneyText(typed: string): string {
  const [whole = '', ...rest] = typed.replace(/[^\d,]/g, '').split(',');
  const cents = rest.length ? `,${rest.join('').slice(0, 2)}` : '';
  const digits = whole.replace(/^0+(?=\d)/, '').slice(0, 12);
  if (digits === '' && cents === '') return '';
  return `R$ ${grouped.format(Number(digits || '0'))}${cents}`;
}

/** The number a money field holds (`R$ 1.234,50` → 1234.5), null when empty. */
export function moneyValue(text: string): number | null {
  const plain = text.replace(/[^\d,]/g, '').replace(',', '.');
  return plain === '' || plain === '.' ? null : Number(plain);
}
