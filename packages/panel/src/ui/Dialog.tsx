import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}

/** Focus back to what opened a dialog, once no other dialog took it (a record's dialog gave way to its form). */
function giveFocusBack(to: HTMLElement | null): void {
  queueMicrotask(() => {
    if (to?.isConnected && !document.querySelector('dialog[open]')) to.focus();
  });
}

/** The first field of a form in the dialog: where a form opens with the cursor. */
const FIRST_FIELD = 'form input:not([type=hidden]):not([disabled]), form select:not([disabled]), form textarea:not([disabled])';

/**
 * A modal on the native <dialog>: focus moves in (to the form's first field when it holds a form) and is
 * trapped, Esc closes, focus returns to what opened it on close.
 *
 * `onClose` means the person closed it (Esc, the X, a Cancel). When the page closes it by setting `open`
 * to false (a record's dialog giving way to its edit form), the native `close` event must not call
 * `onClose`: that would clear the record whose form is opening, and the first click would do nothing.
 */
export function Dialog({ open, onClose, title, description, children, footer, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const wanted = useRef(open);
  // What opened the dialog (a card, a button of the page), kept while the dialog gives way to its forms.
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descId = useId();

  useEffect(() => {
    wanted.current = open;
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) {
      const active = document.activeElement;
      if (active instanceof HTMLElement && active !== document.body && !active.closest('dialog')) opener.current = active;
      el.showModal();
      el.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    }
    if (!open && el.open) {
      el.close();
      giveFocusBack(opener.current);
    }
  }, [open]);

  useEffect(() => {
    const el = ref.current;
    return () => {
      if (el?.open) giveFocusBack(opener.current);
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog ${wide ? 'dialog-wide' : ''}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onClose={() => {
        if (wanted.current) onClose();
      }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <>
          <div className="dialog-header">
            <div>
              <h2 id={titleId}>{title}</h2>
              {description ? <p id={descId}>{description}</p> : null}
            </div>
            <button type="button" className="btn btn-ghost btn-icon" onClick={onClose} aria-label="Fechar">
              <X size={18} aria-hidden />
            </button>
          </div>
          {children ? <div className="dialog-body">{children}</div> : null}
          {footer ? <div className="dialog-footer">{footer}</div> : null}
        </>
      ) : null}
    </dialog>
  );
}
