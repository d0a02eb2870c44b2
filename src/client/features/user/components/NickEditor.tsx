import { useId, useState, type FormEvent } from 'react';
import { NICK_MAX_LENGTH } from '#shared/constants.ts';
import { textLength } from '#shared/text-length.ts';
import { useSetNick } from '../nick.ts';

/**
 * 修改昵称 on one's own profile: the nickname in a field, counted as the server counts it (Chinese
 * 2, emoji 4); 保存 sends it, and the server decides (a refusal shows as a toast).
 */
export function NickEditor({ nick }: { nick: string }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(nick);
  const setNick = useSetNick(() => setEditing(false));
  const id = useId();

  if (!editing) {
    return (
      <button
        type="button"
        className="button button--text button--small profile__edit-nick"
        onClick={() => {
          setValue(nick);
          setEditing(true);
        }}
      >
        修改昵称
      </button>
    );
  }

  const length = textLength(value.trim());
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (setNick.isPending) return;
    if (value.trim() === nick) return setEditing(false);
    setNick.mutate(value);
  };

  return (
    <form className="nick-form" onSubmit={onSubmit} noValidate>
      <label className="nick-form__label" htmlFor={`${id}-nick`}>
        新昵称
      </label>
      <input
        id={`${id}-nick`}
        className="nick-form__input"
        value={value}
        autoComplete="nickname"
        // A field opened by the user's own tap: the caret goes where they will type.
        autoFocus
        aria-describedby={`${id}-count`}
        onChange={(event) => setValue(event.target.value)}
      />
      <span id={`${id}-count`} className={`nick-form__count${length > NICK_MAX_LENGTH ? ' nick-form__count--over' : ''}`} aria-live="polite">
        {length}/{NICK_MAX_LENGTH}
      </span>
      <div className="nick-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={setNick.isPending}>
          {setNick.isPending ? '保存中…' : '保存'}
        </button>
        <button type="button" className="button button--text button--small" onClick={() => setEditing(false)}>
          取消
        </button>
      </div>
    </form>
  );
}
