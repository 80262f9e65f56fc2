import { CarFront } from 'lucide-react';
import { Link } from 'react-router';

export function Brand({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="brand" aria-label="autosales, início">
      <span className="brand-mark" aria-hidden>
        <CarFront size={17} />
      </span>
      autosales
    </Link>
  );
}
