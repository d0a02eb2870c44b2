import type { ReactNode } from 'react';

/**
 * A content page with its title as the page's h1. On mobile the top bar already shows the
 * heading, so the h1 there is for screen readers only.
 */
export function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="content-page">
      <header className="content-page__header">
        <h1 className="page-title">{title}</h1>
      </header>
      {children}
    </div>
  );
}
