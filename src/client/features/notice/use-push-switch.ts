import { useEffect, useState } from 'react';
import { PUSH_FAILED_MESSAGE, pushIsOn, pushSupported, turnPushOff, turnPushOn } from '../../platform/push-subscription.ts';
import { toast } from '../../ui/toast/toast-store.ts';

export type PushSwitchState = 'unsupported' | 'off' | 'on' | 'busy';

/** 推送通知 of this device: whether it is on, and turning it on (the permission asked on the tap) or off. */
export function usePushSwitch(): { state: PushSwitchState; toggle(on: boolean): void } {
  const [state, setState] = useState<PushSwitchState>(() => (pushSupported() ? 'busy' : 'unsupported'));
  useEffect(() => {
    if (!pushSupported()) return;
    let shown = true;
    void pushIsOn().then((on) => shown && setState(on ? 'on' : 'off'));
    return () => {
      shown = false;
    };
  }, []);
  const toggle = (on: boolean) => {
    setState('busy');
    (on ? turnPushOn() : turnPushOff()).then(
      () => setState(on ? 'on' : 'off'),
      (error: unknown) => {
        toast.error(error instanceof Error && error.message ? error.message : PUSH_FAILED_MESSAGE);
        void pushIsOn().then((now) => setState(now ? 'on' : 'off'));
      },
    );
  };
  return { state, toggle };
}
