import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from './Button';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (plain HTTP on a LAN address, or no permission): the old way still works.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CopyButton({ text, label = 'Copiar' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <Button
      size="sm"
      icon={done ? <Check size={15} aria-hidden /> : <Copy size={15} aria-hidden />}
      onClick={() => {
        void copyText(text).then((ok) => {
          if (!ok) return;
          setDone(true);
          window.setTimeout(() => setDone(false), 2000);
        });
      }}
    >
      <span aria-live="polite">{done ? 'Copiado' : label}</span>
    </Button>
  );
}

/** A secret or key shown in full, with a copy button. */
export function SecretBox({ value, label }: { value: string; label: string }) {
  return (
    <div className="secret" aria-label={label}>
      <code data-testid="secret-value">{value}</code>
      <CopyButton text={value} />
    </div>
  );
}
