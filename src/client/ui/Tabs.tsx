/**
 * Tabs (WAI-ARIA tabs pattern): a tablist whose arrow keys, Home and End move between tabs, and
 * the panel of the selected one. Panels of tabs not yet opened are not rendered.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import './tabs.css';

export interface Tab {
  key: string;
  label: string;
  panel: ReactNode;
}

export function Tabs({ tabs, selected, onSelect, label }: { tabs: Tab[]; selected: string; onSelect: (key: string) => void; label: string }) {
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const index = Math.max(0, tabs.findIndex((tab) => tab.key === selected));
  const current = tabs[index];

  const onKeyDown = (event: KeyboardEvent) => {
    const next =
      event.key === 'ArrowRight' ? (index + 1) % tabs.length
      : event.key === 'ArrowLeft' ? (index - 1 + tabs.length) % tabs.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? tabs.length - 1
      : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(tabs[next]!.key);
    listRef.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };

  return (
    <div className="tabs">
      <div ref={listRef} className="tabs__list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const active = tab.key === current?.key;
          return (
            <button
              key={tab.key}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.key}`}
              aria-selected={active}
              aria-controls={`${baseId}-panel-${tab.key}`}
              tabIndex={active ? 0 : -1}
              className={`tabs__tab${active ? ' tabs__tab--active' : ''}`}
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {current ? (
        <div
          role="tabpanel"
          id={`${baseId}-panel-${current.key}`}
          aria-labelledby={`${baseId}-tab-${current.key}`}
          className="tabs__panel"
        >
          {current.panel}
        </div>
      ) : null}
    </div>
  );
}
