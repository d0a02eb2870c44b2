import { useId } from 'react';
import { ModalDialog } from '../overlay/ModalDialog.tsx';
import type { PickerItem, PickerSheet } from './picker-store.ts';
import './picker.css';

export default function PickerView({
  current,
  choose,
}: {
  current: PickerSheet & { id: number };
  choose: (item: PickerItem | null) => void;
}) {
  const titleId = useId();
  const cancel = () => choose(null);
  return (
    <ModalDialog
      className="picker-layer"
      aria-labelledby={current.title ? titleId : undefined}
      aria-label={current.title ? undefined : '选择操作'}
      onDismiss={cancel}
      onBackdrop={cancel}
    >
      <div className="picker">
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
        <button type="button" className="picker__cancel" onClick={cancel}>
          {current.cancelText}
        </button>
      </div>
    </ModalDialog>
  );
}
