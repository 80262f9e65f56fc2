import { CalendarDays } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { DayPicker } from 'react-day-picker';
import { ptBR } from 'react-day-picker/locale';
import 'react-day-picker/style.css';
import { format as maskFormat } from '@react-input/mask/utils';
import { TextField, type TextFieldProps } from './Field';

type Props = Omit<TextFieldProps, 'onChange' | 'value' | 'ref' | 'type'> & {
  /** The day as the API takes it, `YYYY-MM-DD`, or '' for none. */
  value: string;
  onChange: (day: string) => void;
  /** In a toolbar: the label beside the input. */
  inline?: boolean;
};

const DIGIT = { _: /\d/ };

/** `2026-11-28` → `28/11/2026`. */
export function dayToBr(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

/** `28/11/2026` → `2026-11-28`, or null when it is not a whole, real day. */
export function brToDay(text: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${m[3]}-${m[2]}-${m[1]}`;
}

const localDate = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d);
};
const isoOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * A day typed as dd/mm/aaaa or picked from a calendar in Portuguese, the same whatever the browser's
 * language (a native date input shows mm/dd/yyyy in an English browser). The value is `YYYY-MM-DD`.
 */
export function DateField({ value, onChange, label, inline, ...rest }: Props) {
  const [text, setText] = useState(dayToBr(value));
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const pickerId = useId();
  // A value set from outside (a form reset, a picked day) shows in the text (state adjusted while rendering, as React advises).
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if ((brToDay(text) ?? '') !== value) setText(dayToBr(value));
  }
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);
  const typed = (raw: string) => {
    const digits = raw.replace(/\D/g, '').slice(0, 8);
    const next = digits === '' ? '' : maskFormat(digits, { mask: '__/__/____', replacement: DIGIT });
    setText(next);
    if (next === '') onChange('');
    else {
      const day = brToDay(next);
      if (day) onChange(day);
    }
  };
  return (
    <div className={`date-field${inline ? ' date-field-inline' : ''}`} ref={box}>
      <TextField
        label={label}
        inputMode="numeric"
        placeholder="dd/mm/aaaa"
        value={text}
        onChange={(e) => typed(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            e.stopPropagation();
            setOpen(false);
          }
        }}
        {...rest}
      />
      <button
        type="button"
        className="btn btn-ghost btn-icon btn-sm date-field-button"
        aria-label={`Escolher no calendário: ${typeof label === 'string' ? label : 'data'}`}
        aria-expanded={open}
        aria-controls={pickerId}
        onClick={() => setOpen((o) => !o)}
      >
        <CalendarDays size={16} aria-hidden />
      </button>
      {open ? (
        <div className="date-field-popover" id={pickerId}>
          <DayPicker
            mode="single"
            locale={ptBR}
            selected={value ? localDate(value) : undefined}
            defaultMonth={value ? localDate(value) : undefined}
            onSelect={(d) => {
              if (d) onChange(isoOf(d));
              setOpen(false);
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
