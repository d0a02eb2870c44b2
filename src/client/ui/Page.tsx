import type { ReactNode } from 'react';

/**
 * A content page with its title as the page's h1. On mobile the top bar already shows the
 * heading, so the h1 there is for screen readers only.
 */
export function Page({
  title,
  children,
  actions,
  className,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={['content-page', className].filter(Boolean).join(' ')}>
      <header className="content-page__header">
        <h1 className="page-title">{title}</h1>
        {actions ? <div className="content-page__actions">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}
