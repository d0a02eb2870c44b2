/** How many texts the editor may have sent out and not yet seen back before the oldest is forgotten. */
const KEPT = 50;

/**
 * Which `value.code` that comes in is a change from outside (a draft restored, the composer's
 * reset), and which is the echo of a text the editor sent out itself through onChange: echoes
 * come back in order, maybe late, and must not replace what has been typed since.
 */
export interface CodeEchoes {
  /** The editor now holds `code` (it was created with it): nothing sent before counts any more. */
  reset(code: string): void;
  /** The editor sent `code` out. */
  sent(code: string): void;
  /** `code` came in as the value; true when it is from outside and the editor must take it. */
  fromOutside(code: string): boolean;
}

export function createCodeEchoes(): CodeEchoes {
  let pending: string[] = [];
  // The last value the editor has taken into account.
  let seen: string | null = null;
  return {
    reset(code) {
      seen = code;
      pending = [];
    },
    sent(code) {
      pending.push(code);
      if (pending.length > KEPT) pending.shift();
    },
    fromOutside(code) {
      if (code === seen) return false;
      seen = code;
      const echo = pending.indexOf(code);
      if (echo >= 0) {
        pending.splice(0, echo + 1);
        return false;
      }
      pending = [];
      return true;
    },
  };
}
