import { CircleAlert } from 'lucide-react';
import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldShellProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}

/**
 * A server message about this field, in the form's own words: "Campo 'title' é obrigatório" on the
 * field labelled "Título" reads "Campo “Título” é obrigatório" (the API names its fields; people read
 * labels; "campo" keeps the sentence's gender right whatever the label).
 */
export function inOwnWords(message: string, label: ReactNode): string {
  if (typeof label !== 'string') return message;
  return message.replace(/^(?:Campo|Parâmetro) '[^']+'/, `Campo “${label}”`);
}

function FieldShell({ id, label, hint, error: given, children }: FieldShellProps) {
  const error = given === undefined ? undefined : inOwnWords(given, label);
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && !error ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          <CircleAlert size={14} aria-hidden />
          {error}
        </span>
      ) : null}
    </div>
  );
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  if (error) return `${id}-error`;
  if (hint) return `${id}-hint`;
  return undefined;
}

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  ref?: Ref<HTMLInputElement>;
};

export function TextField({ label, hint, error, id: given, className, ...rest }: TextFieldProps) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <input id={id} className={`input ${className ?? ''}`} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...rest} />
    </FieldShell>
  );
}

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: ReactNode; hint?: ReactNode; error?: string | undefined };

export function TextArea({ label, hint, error, id: given, ...rest }: TextAreaProps) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <textarea id={id} className="textarea" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...rest} />
    </FieldShell>
  );
}

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & { label: ReactNode; hint?: ReactNode; error?: string | undefined };

export function SelectField({ label, hint, error, id: given, children, ...rest }: SelectFieldProps) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <FieldShell id={id} label={label} hint={hint} error={error}>
      <select id={id} className="select" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...rest}>
        {children}
      </select>
    </FieldShell>
  );
}
