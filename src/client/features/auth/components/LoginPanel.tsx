import { useId, useRef } from 'react';
import { LOGIN_CODE_LENGTH } from '#shared/constants.ts';
import { IconClose } from '../../../ui/icons-secondary.tsx';
import { ModalDialog } from '../../../ui/overlay/ModalDialog.tsx';
import { useLoginDialogStore } from '../login-store.ts';
import { usePhoneLogin } from '../use-phone-login.ts';
import '../../../ui/dialog/dialog.css';
import './login.css';

/** The phone login popup, loaded on first open and mounted fresh on each, so nothing lingers. */
export default function LoginPanel() {
  const close = useLoginDialogStore((s) => s.close);
  const form = usePhoneLogin(close);
  const { cellphone, error, codeSent } = form;
  const phoneRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const errorId = useId();

  return (
    // A drag that begins in the form (selecting the typed number) must not close it.
    <ModalDialog
      className="dialog-layer login-layer"
      aria-labelledby={titleId}
      aria-describedby={error ? errorId : undefined}
      onDismiss={close}
      onBackdrop={close}
      initialFocus={phoneRef}
    >
      <form className="dialog login-dialog" onSubmit={form.submit} noValidate>
        <button type="button" className="login-dialog__close" aria-label="关闭" onClick={close}>
          <IconClose />
        </button>
        <h2 id={titleId} className="dialog__title">
          手机号登录
        </h2>
        <p className="login-dialog__hint">未注册的手机号验证后将自动创建账号</p>
        <label className="login-field">
          <span className="login-field__label">手机号</span>
          <span className="login-field__prefix" aria-hidden="true">
            +86
          </span>
          <input
            ref={phoneRef}
            className="login-field__input"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            maxLength={11}
            placeholder="请输入手机号"
            value={cellphone}
            onChange={(e) => form.setCellphone(e.target.value)}
            aria-invalid={error !== null && !codeSent}
          />
        </label>
        <LoginCodeField id={`${titleId}-code`} form={form} />
        <p id={errorId} className="login-dialog__error" role="alert">
          {error}
        </p>
        <button type="submit" className="button button--primary login-dialog__submit" disabled={form.loggingIn || !cellphone}>
          {form.loggingIn ? '登录中…' : '登录'}
        </button>
      </form>
    </ModalDialog>
  );
}

/** 验证码, and the button that sends one (again, once the countdown is over). */
function LoginCodeField({ id, form }: { id: string; form: ReturnType<typeof usePhoneLogin> }) {
  const { cellphone, code, setCode, codeRef, error, codeSent, secondsLeft, sendingCode, requestCode } = form;
  const sendLabel = sendingCode ? '发送中…' : secondsLeft > 0 ? `${secondsLeft} 秒后重发` : codeSent ? '重新获取' : '获取验证码';
  return (
    <div className="login-field">
      <label className="login-field__label" htmlFor={id}>
        验证码
      </label>
      <input
        ref={codeRef}
        id={id}
        className="login-field__input"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={LOGIN_CODE_LENGTH}
        placeholder={`${LOGIN_CODE_LENGTH} 位验证码`}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        aria-invalid={error !== null && codeSent}
      />
      <button
        type="button"
        className="button button--text login-field__send"
        onClick={requestCode}
        disabled={cellphone.trim().length === 0 || secondsLeft > 0 || sendingCode}
      >
        {sendLabel}
      </button>
    </div>
  );
}
