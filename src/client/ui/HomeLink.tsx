import { Link } from '@tanstack/react-router';

/** The way back to /home that pages without content of their own offer. */
export function HomeLink({ label = '回到首页', primary = false }: { label?: string; primary?: boolean }) {
  return (
    <Link to="/home" className={`button ${primary ? 'button--primary' : 'button--ghost'}`}>
      {label}
    </Link>
  );
}
