import { TextField, type TextFieldProps } from './Field';
import { maskText, moneyText, placeholderOf, plateInput, type MaskKind } from './masks';

type Props = Omit<TextFieldProps, 'onChange' | 'value' | 'ref'> & { value: string; onChange: (value: string) => void };

/**
 * CPF, CNPJ, CEP or phone with its punctuation filled in as it is typed or pasted (`52841739619`
 * becomes `528.417.396-19`); the value is the formatted text, as the demo store keeps them.
 */
export function MaskedField({ kind, value, onChange, ...rest }: Props & { kind: MaskKind }) {
  return <TextField inputMode="numeric" placeholder={placeholderOf(kind)} value={value} onChange={(e) => onChange(maskText(kind, e.target.value))} {...rest} />;
}

/** Money in reais as it is typed (`R$ 1.234,50`); read the number with moneyValue. */
export function MoneyField({ value, onChange, ...rest }: Props) {
  return <TextField inputMode="decimal" placeholder="R$ 0,00" value={value} onChange={(e) => onChange(moneyText(e.target.value))} {...rest} />;
}

/** A plate, kept in upper case as it is typed (old `ABC-1234` and Mercosul `ABC1D23` forms). */
export function PlateField({ value, onChange, ...rest }: Props) {
  return <TextField autoCapitalize="characters" placeholder="ABC1D23" value={value} onChange={(e) => onChange(plateInput(e.target.value))} {...rest} />;
}
