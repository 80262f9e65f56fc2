import { WifiOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** A bar while the browser has no connection: what is on screen may be old and changes are not saved. */
export function OfflineNotice() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine);
  if (online) return null;
  return (
    <div className="offline-notice" role="status">
      <WifiOff size={16} aria-hidden /> Sem conexão com a internet. O que está na tela pode estar desatualizado e nada é salvo até a conexão voltar.
    </div>
  );
}
