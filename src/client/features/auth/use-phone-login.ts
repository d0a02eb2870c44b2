import { useRef, useState, type FormEvent } from 'react';
import { LOGIN_CODE_RESEND_S } from '#shared/constants.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../ui/toast/toast-store.ts';
import { useLogin, useSendLoginCode } from './login-mutations.ts';
import { useCountdown } from './use-countdown.ts';

/**
 * The steps of a phone login: the number and the code as typed (digits only), 获取验证码 (then a
 * resend after LOGIN_CODE_RESEND_S seconds, the cursor in the code), 登录 (`submit`; `onLoggedIn`
 * once in), and the server's error of the last step.
 */
export function usePhoneLogin(onLoggedIn: () => void) {
  const sendCode = useSendLoginCode();
  const login = useLogin();
  const [cellphone, setCellphone] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [codeSent, setCodeSent] = useState(false);
  const [secondsLeft, startCountdown] = useCountdown();
  const codeRef = useRef<HTMLInputElement>(null);

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
          onLoggedIn();
          toast.success(`欢迎回来，${user.nick}`);
        },
        onError: (e) => setError(errorText(e)),
      },
    );
  };

  return {
    cellphone,
    setCellphone: (typed: string) => setCellphone(typed.replace(/\D/g, '')),
    code,
    setCode: (typed: string) => setCode(typed.replace(/\D/g, '')),
    codeRef,
    error,
    codeSent,
    secondsLeft,
    sendingCode: sendCode.isPending,
    loggingIn: login.isPending,
    requestCode,
    submit,
  };
}
