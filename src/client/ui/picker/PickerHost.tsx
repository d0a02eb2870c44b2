import { useId, useRef } from 'react';
import { useModal } from '../overlay/modal.ts';
import { usePickerStore } from './picker-store.ts';

export function PickerHost() {
  const current = usePickerStore((s) => s.current);
  const choose = usePickerStore((s) => s.choose);
  const sheetRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const open = current !== null;
  const cancel = () => choose(null);
  const backdrop = useModal(sheetRef, open, { onEscape: cancel, onBackdrop: cancel });
  if (!current) return null;
  return (
    <div className="picker-layer" {...backdrop}>
      <div
        ref={sheetRef}
        className="picker"
        role="dialog"
        aria-modal="true"
        aria-labelledby={current.title ? titleId : undefined}
        aria-label={current.title ? undefined : '选择操作'}
        tabIndex={-1}
      >
        {current.title ? (
          <h2 id={titleId} className="picker__title">
            {current.title}
          </h2>
        ) : null}
        <ul className="picker__list">
          {current.items.map((item) => (
            <li key={item.key}>
              <button
                type="button"
                className={`picker__item${item.danger ? ' picker__item--danger' : ''}`}
                disabled={item.disabled}
                onClick={() => choose(item)}
              >
                {item.icon ? <span className="picker__icon">{item.icon}</span> : null}
                <span>{item.text}</span>
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="picker__cancel" onClick={() => choose(null)}>
          {current.cancelText}
        </button>
      </div>
    </div>
  );
}
