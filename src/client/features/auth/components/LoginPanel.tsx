import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { LOGIN_CODE_LENGTH, LOGIN_CODE_RESEND_S } from '#shared/constants.ts';
import { errorText } from '../../../lib/error-text.ts';
import { IconClose } from '../../../ui/icons.tsx';
import { ModalDialog } from '../../../ui/overlay/ModalDialog.tsx';
import { toast } from '../../../ui/toast/toast-store.ts';
import { useLoginDialogStore } from '../login-store.ts';
import { useLogin, useSendLoginCode } from '../login-mutations.ts';
import '../../../ui/dialog/dialog.css';
import './login.css';


/** A resend countdown: whole seconds left, and a start(seconds). Ticks once a second. */
function useCountdown(): [number, (seconds: number) => void] {
  const [clock, setClock] = useState({ until: 0, now: 0 });
  useEffect(() => {
    if (clock.until === 0) return;
    const timer = setInterval(() => {
      const now = Date.now();
      setClock((c) => ({ ...c, now }));
      if (now >= clock.until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [clock.until]);
  const start = (seconds: number) => {
    const now = Date.now();
    setClock({ until: now + seconds * 1000, now });
  };
  return [Math.max(0, Math.ceil((clock.until - clock.now) / 1000)), start];
}

/** The phone login popup, loaded on first open and mounted fresh on each, so nothing lingers. */
export default function LoginPanel() {
  const close = useLoginDialogStore((s) => s.close);
  const sendCode = useSendLoginCode();
  const login = useLogin();
  const [cellphone, setCellphone] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [codeSent, setCodeSent] = useState(false);
  const [secondsLeft, startCountdown] = useCountdown();
  const phoneRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const errorId = useId();

  const requestCode = () => {
    setError(null);
    sendCode.mutate(cellphone.trim(), {
      onSuccess: () => {
        setCodeSent(true);
        startCountdown(LOGIN_CODE_RESEND_S);
        codeRef.current?.focus();
      },
      onError: (e) => setError(errorText(e)),
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (login.isPending) return;
    setError(null);
    login.mutate(
      { cellphone: cellphone.trim(), code: code.trim() },
      {
        onSuccess: (user) => {
          close();
          toast.success(`欢迎回来，${user.nick}`);
        },
        onError: (e) => setError(errorText(e)),
      },
    );
  };

  const sendLabel = sendCode.isPending ? '发送中…' : secondsLeft > 0 ? `${secondsLeft} 秒后重发` : codeSent ? '重新获取' : '获取验证码';

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
      <form className="dialog login-dialog" onSubmit={submit} noValidate>
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
            onChange={(e) => setCellphone(e.target.value.replace(/\D/g, ''))}
            aria-invalid={error !== null && !codeSent}
          />
        </label>
        <div className="login-field">
          <label className="login-field__label" htmlFor={`${titleId}-code`}>
            验证码
          </label>
          <input
            ref={codeRef}
            id={`${titleId}-code`}
            className="login-field__input"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={LOGIN_CODE_LENGTH}
            placeholder={`${LOGIN_CODE_LENGTH} 位验证码`}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            aria-invalid={error !== null && codeSent}
          />
          <button
            type="button"
            className="button button--text login-field__send"
            onClick={requestCode}
            disabled={cellphone.trim().length === 0 || secondsLeft > 0 || sendCode.isPending}
          >
            {sendLabel}
          </button>
        </div>
        <p id={errorId} className="login-dialog__error" role="alert">
          {error}
        </p>
        <button type="submit" className="button button--primary login-dialog__submit" disabled={login.isPending || !cellphone}>
          {login.isPending ? '登录中…' : '登录'}
        </button>
      </form>
    </ModalDialog>
  );
}
