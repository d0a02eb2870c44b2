/**
 * The hook point for opening the login flow (SPEC.md section 6). The auth work registers the
 * real popup with `setLoginOpener`; until then the 登录 buttons do nothing.
 */
type LoginOpener = () => void;

let opener: LoginOpener = () => {};

export function setLoginOpener(next: LoginOpener): () => void {
  const before = opener;
  opener = next;
  return () => {
    opener = before;
  };
}

export function requestLogin(): void {
  opener();
}
